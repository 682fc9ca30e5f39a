// The design canvas (react-konva): draws a design document at displayWidth (or narrower, to fit its container on a
// small screen), scaled from print pixels, with the print and safe area guides the designer's view draws
// (print/guides.ts), and edits it through the pure model (model.ts): select, drag with the centre snapping guide, Transformer with
// the restricted-mode clamps, zoom (wheel) and pan (drag the background). What it changes it hands to the editor as
// the actions of CANVAS_ACTIONS (model/actions.ts); its keys go to the editor too (onKeyDown), which looks them up in
// the same registry.

import { useElementSize } from '@mantine/hooks';
import type Konva from 'konva';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Group, Layer, Line, Rect, Stage, Transformer } from 'react-konva';
import { GUIDES, guideRects, type ProductOutline } from '../print/guides';
import { imageSources, useDesignAssets } from './assets';
import type { DesignDocument, DesignObject } from './document';
import { DesignObjects, type ObjectHandlers } from './DesignObjects';
import type { CanvasPerformance } from './model/actions';
import {
  EDITOR,
  isCustomObject,
  objectHeight,
  sizeRefusal,
  snapToCentre,
  transformObject,
  type Box,
  type Size,
} from './model';

export type DesignCanvasProps = {
  doc: DesignDocument;
  /** Performs an action of CANVAS_ACTIONS. */
  perform: (action: CanvasPerformance) => void;
  /** Keys pressed while the canvas has the focus. */
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
  selectedId: string | null;
  /** Restricted mode: objects stay in the print area, images within DPI/minDPI, artwork unrotated. */
  restricted?: boolean;
  /** Lock-edit mode: only the customer object (model.isCustomObject) can be moved. */
  lockEdit?: boolean;
  /** Width of the canvas in CSS pixels (EDITOR.displayWidth by default); narrower when its container is. */
  displayWidth?: number;
  /** The URL an image source is displayed from (the `design` variant of an upload). */
  imageUrl: (src: string) => string;
  /** The URL a fontUrl is fetched from; imageUrl when not given. */
  fontUrl?: (src: string) => string;
  /** Called with the size of each displayed image as it loads (the variant's size, not the original's). */
  onImageLoad?: (src: string, size: Size) => void;
  /** Natural sizes of the original images, for the restricted DPI/minDPI cap; without one the cap is skipped. */
  naturals?: Record<string, Size>;
  /** Colour behind the print area (the product's). */
  background?: string;
  /** The product around the print area (the product's outlines), drawn outside it: seen when zoomed out. Never printed. */
  outline?: ProductOutline | null;
  /** Zoomed out to the whole product (needs an outline); the print area fills the canvas otherwise. */
  productView?: boolean;
};

const ZOOM_MIN = 1;
const ZOOM_MAX = 8;
const ZOOM_STEP = 1.1;

/** The Konva design canvas of one print space. */
export function DesignCanvas({
  doc,
  perform,
  onKeyDown,
  selectedId,
  restricted = false,
  lockEdit = false,
  displayWidth = EDITOR.displayWidth,
  imageUrl,
  fontUrl,
  onImageLoad,
  naturals,
  background = '#f1f3f5',
  outline = null,
  productView = false,
}: DesignCanvasProps) {
  // The canvas fits its container: at most displayWidth, narrower on a small screen (0: not measured yet).
  const { ref: fitRef, width: room } = useElementSize();
  return (
    <div ref={fitRef} style={{ width: '100%', maxWidth: displayWidth }}>
      <FittedCanvas
        {...{ doc, perform, onKeyDown, selectedId, restricted, lockEdit, imageUrl, fontUrl, onImageLoad, naturals, background, outline, productView }}
        displayWidth={room > 0 ? Math.min(displayWidth, Math.floor(room)) : displayWidth}
      />
    </div>
  );
}

function FittedCanvas({
  doc,
  perform,
  onKeyDown,
  selectedId,
  restricted = false,
  lockEdit = false,
  displayWidth = EDITOR.displayWidth,
  imageUrl,
  fontUrl,
  onImageLoad,
  naturals,
  background,
  outline,
  productView,
}: DesignCanvasProps) {
  const { width: W, height: H } = doc.printSpace;
  const scale = displayWidth / W;
  const displayHeight = Math.round(H * scale);
  const guides = guideRects(doc.printSpace);
  // Why the last handle drag was held back (restricted mode, or the font size bounds), until another selection.
  const [limit, setLimit] = useState<{ id: string | null; message: string } | null>(null);
  const transforming = useRef(false);
  const { images, fontFamilies, fontsVersion } = useDesignAssets(doc, imageUrl, fontUrl ?? imageUrl, onImageLoad);

  const stageRef = useRef<Konva.Stage>(null);
  const transformerRef = useRef<Konva.Transformer>(null);
  const guideX = useRef<Konva.Line>(null);
  const guideY = useRef<Konva.Line>(null);
  const nodes = useRef(new Map<string, Konva.Group>());
  const [zoom, setZoom] = useState(1);

  // The zoom that shows the whole product, a little margin around it; the wheel zooms out as far as that.
  const fit = outline
    ? Math.min(1, (0.94 * displayWidth) / (outline.bounds.width * scale), (0.94 * displayHeight) / (outline.bounds.height * scale))
    : 1;
  const zoomMin = Math.min(ZOOM_MIN, fit);
  const showProduct = !!outline && !!productView;
  // The product's centre in print pixels: the view is set again only when it, the fit or the mode changes.
  const centreX = outline ? outline.bounds.x + outline.bounds.width / 2 : 0;
  const centreY = outline ? outline.bounds.y + outline.bounds.height / 2 : 0;
  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const next = showProduct ? fit : 1;
    stage.scale({ x: next, y: next });
    stage.position(
      showProduct ? { x: displayWidth / 2 - centreX * scale * fit, y: displayHeight / 2 - centreY * scale * fit } : { x: 0, y: 0 },
    );
    setZoom(next);
  }, [showProduct, fit, centreX, centreY, scale, displayWidth, displayHeight]);

  // The latest props for the Konva event handlers, which outlive a render.
  const latest = useRef({ doc, perform, restricted, lockEdit, naturals });
  useEffect(() => {
    latest.current = { doc, perform, restricted, lockEdit, naturals };
  });

  const find = (id: string): DesignObject | undefined => latest.current.doc.objects.find((o) => o.id === id);
  const mode = () => ({ restricted: latest.current.restricted, lockEdit: latest.current.lockEdit });
  const movable = useCallback(
    (id: string) => {
      const o = doc.objects.find((x) => x.id === id);
      return !!o && (!lockEdit || isCustomObject(o));
    },
    [doc, lockEdit],
  );

  const boxOf = (o: DesignObject, node: Konva.Node): Box => ({
    x: node.x(),
    y: node.y(),
    width: o.width,
    height: objectHeight(o),
    rotation: node.rotation(),
  });

  const showGuides = (x: boolean, y: boolean) => {
    guideX.current?.visible(x);
    guideY.current?.visible(y);
    guideX.current?.getLayer()?.batchDraw();
  };

  const handlers: ObjectHandlers = useMemo(
    () => ({
      draggable: movable,
      register: (id, node) => {
        if (node) nodes.current.set(id, node);
        else nodes.current.delete(id);
      },
      onPointerDown: (id) => latest.current.perform({ name: 'select', value: id }),
      onDragMove: (id, e) => {
        const o = find(id);
        if (!o) return;
        const node = e.target;
        const box = boxOf(o, node);
        const snap = snapToCentre(latest.current.doc.printSpace, { ...box, height: box.height ?? 0 });
        const moved = transformObject(latest.current.doc, id, { ...box, x: snap.x, y: snap.y }, mode());
        const placed = moved.objects.find((x) => x.id === id) ?? o;
        node.position({ x: placed.x, y: placed.y });
        showGuides(snap.snapX && placed.x === snap.x, snap.snapY && placed.y === snap.y);
      },
      onDragEnd: (id, e) => {
        showGuides(false, false);
        const o = find(id);
        if (!o) return;
        latest.current.perform({ name: 'transform', value: { id, box: boxOf(o, e.target) } });
      },
      onTransformEnd: (id, e) => {
        const o = find(id);
        if (!o) return;
        const node = e.target;
        const sx = Math.abs(node.scaleX());
        const sy = Math.abs(node.scaleY());
        node.scale({ x: 1, y: 1 });
        const box: Box =
          o.type === 'image'
            ? { x: node.x(), y: node.y(), width: o.width * sx, height: o.height * sy, rotation: node.rotation() }
            : { x: node.x(), y: node.y(), width: o.width * sx, fontSize: o.fontSize * sy, rotation: node.rotation() };
        const natural = o.type === 'image' ? latest.current.naturals?.[o.src] : undefined;
        latest.current.perform({ name: 'transform', value: { id, box, natural } });
      },
    }),
    [movable],
  );

  const selected = selectedId ? doc.objects.find((o) => o.id === selectedId) : undefined;
  const canTransform = !!selected && (!lockEdit || isCustomObject(selected));

  // Attach the Transformer to the selected object.
  useEffect(() => {
    const tr = transformerRef.current;
    if (!tr) return;
    const node = canTransform && selectedId ? nodes.current.get(selectedId) : undefined;
    tr.nodes(node ? [node] : []);
    tr.getLayer()?.batchDraw();
  }, [canTransform, selectedId, doc]);

  // Cache image groups at the displayed resolution: dragging then blits a small bitmap instead of
  // resampling the 1500 px design variant every frame. A group is cached again only when its image, its object
  // or the display scale changed: typing in a text must not redraw every artwork on each keystroke.
  // Keyed by the Konva node, so a removed object's entry goes with its node and a new node is cached afresh.
  const cached = useRef(new WeakMap<Konva.Group, { o: DesignObject; image: unknown; ratio: number }>());
  useEffect(() => {
    const ratio = Math.min(1, scale * zoom * (window.devicePixelRatio || 1));
    let redrawn = false;
    for (const o of doc.objects) {
      const node = nodes.current.get(o.id);
      const image = o.type === 'image' ? images[o.src] : undefined;
      if (!node || !image) continue;
      const last = cached.current.get(node);
      if (last && last.o === o && last.image === image && last.ratio === ratio) continue;
      node.clearCache();
      node.cache({ pixelRatio: ratio });
      cached.current.set(node, { o, image, ratio });
      redrawn = true;
    }
    if (redrawn) stageRef.current?.batchDraw();
  }, [doc, images, scale, zoom]);

  // Restricted mode refuses a Transformer box larger than the print area or past the DPI cap, and no text grows
  // past its font size bounds; the canvas says why (model.sizeRefusal) instead of just stopping.
  const boundBox = useCallback(
    <B extends { width: number; height: number }>(oldBox: B, newBox: B): B => {
      if (!selected) return newBox;
      const s = scale * zoom;
      const size = { width: Math.abs(newBox.width) / s, height: Math.abs(newBox.height) / s };
      const natural = selected.type === 'image' ? naturals?.[selected.src] : undefined;
      const why = sizeRefusal(doc.printSpace, selected, size, { restricted, natural });
      if (!why) return newBox;
      // Said only for a handle the seller drags, and set once: Konva also fits boxes while it redraws.
      if (transforming.current) {
        const id = selected.id;
        setLimit((shown) => (shown?.id === id && shown.message === why ? shown : { id, message: why }));
      }
      return oldBox;
    },
    [restricted, selected, scale, zoom, naturals, doc.printSpace],
  );
  const shownLimit = limit && limit.id === selectedId ? limit.message : null;

  const onWheel = (e: Konva.KonvaEventObject<WheelEvent>) => {
    e.evt.preventDefault();
    const stage = stageRef.current;
    const pointer = stage?.getPointerPosition();
    if (!stage || !pointer) return;
    const old = stage.scaleX();
    const next = Math.min(ZOOM_MAX, Math.max(zoomMin, e.evt.deltaY < 0 ? old * ZOOM_STEP : old / ZOOM_STEP));
    const at = { x: (pointer.x - stage.x()) / old, y: (pointer.y - stage.y()) / old };
    stage.scale({ x: next, y: next });
    stage.position(next === 1 ? { x: 0, y: 0 } : { x: pointer.x - at.x * next, y: pointer.y - at.y * next });
    setZoom(next);
  };

  const onStageDown = (e: Konva.KonvaEventObject<MouseEvent | TouchEvent>) => {
    if (e.target === e.target.getStage() || e.target.name() === 'print-area') perform({ name: 'select', value: null });
  };

  const rotateEnabled = !(restricted && selected?.type === 'image');

  return (
    <div
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-label="Design canvas"
      data-testid="design-canvas"
      // "true" until every image of the document is drawn (tests wait on it; a variant can take seconds).
      data-loading={imageSources(doc).some((src) => !images[src])}
      data-display-width={displayWidth}
      data-product-view={showProduct}
      style={{ width: displayWidth, height: displayHeight, outline: 'none', overflow: 'hidden', position: 'relative' }}
    >
      <Stage
        ref={stageRef}
        width={displayWidth}
        height={displayHeight}
        draggable={zoom > 1}
        onWheel={onWheel}
        onMouseDown={onStageDown}
        onTouchStart={onStageDown}
      >
        <Layer listening>
          {outline && (
            // The product, in its colour, under the print area; its edges grey lines (the body first, then what lies on it).
            <Group scaleX={scale} scaleY={scale} listening={false} name="product-outline">
              {outline.shapes.map((points, i) => (
                <Line
                  key={i}
                  points={[...points]}
                  closed
                  fill={background}
                  stroke={GUIDES.product.color}
                  strokeWidth={GUIDES.product.width / (scale * zoom)}
                />
              ))}
            </Group>
          )}
          <Rect name="print-area" x={0} y={0} width={displayWidth} height={displayHeight} fill={background} />
        </Layer>
        <Layer>
          <Group scaleX={scale} scaleY={scale}>
            <DesignObjects
              doc={doc}
              images={images}
              fontFamilies={fontFamilies}
              fontsVersion={fontsVersion}
              handlers={handlers}
            />
          </Group>
        </Layer>
        <Layer listening={false}>
          <Group scaleX={scale} scaleY={scale}>
            {(['printArea', 'safeArea'] as const).map((name) => {
              const r = guides[name];
              // Zoomed out to the product, the lines keep their width on screen.
              const w = GUIDES[name].width / (scale * Math.min(1, zoom));
              // Inset by half the line, so the print area's edge shows whole inside the canvas.
              return (
                <Rect
                  key={name}
                  name={name}
                  x={r.x + w / 2}
                  y={r.y + w / 2}
                  width={Math.max(0, r.width - w)}
                  height={Math.max(0, r.height - w)}
                  stroke={GUIDES[name].color}
                  strokeWidth={w}
                  dash={GUIDES[name].dash?.map((d) => d / (scale * Math.min(1, zoom)))}
                />
              );
            })}
          </Group>
        </Layer>
        <Layer>
          <Group scaleX={scale} scaleY={scale} listening={false}>
            <Line ref={guideX} points={[W / 2, 0, W / 2, H]} stroke="#e64980" strokeWidth={2 / scale} visible={false} />
            <Line ref={guideY} points={[0, H / 2, W, H / 2]} stroke="#e64980" strokeWidth={2 / scale} visible={false} />
          </Group>
          <Transformer
            ref={transformerRef}
            rotateEnabled={rotateEnabled}
            keepRatio={selected?.type === 'image'}
            flipEnabled={false}
            boundBoxFunc={boundBox}
            onTransformStart={() => {
              transforming.current = true;
              setLimit(null);
            }}
            onTransformEnd={() => {
              transforming.current = false;
            }}
          />
        </Layer>
      </Stage>
      {shownLimit && (
        <div
          role="status"
          data-testid="canvas-refusal"
          style={{
            position: 'absolute', left: 8, right: 8, bottom: 8, padding: '6px 10px', borderRadius: 6, fontSize: 13,
            lineHeight: 1.35, background: 'rgba(255, 244, 230, 0.96)', color: '#d9480f', border: '1px solid #ffc078',
            pointerEvents: 'none',
          }}
        >
          {shownLimit}
        </div>
      )}
    </div>
  );
}
