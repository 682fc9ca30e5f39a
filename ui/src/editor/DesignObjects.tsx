// The Konva nodes of a design document's objects, drawn in print pixels (the parent scales them). One builder
// for the editor (DesignCanvas) and the fidelity render page (src/render), so both draw the same thing; the
// layout rules are renderer/raster/doc.go's.

import type Konva from 'konva';
import { useMemo } from 'react';
import { Group, Image as KonvaImage, Text } from 'react-konva';
import type { DesignDocument, ImageObject, TextObject } from './document';
import { textNodeConfig, type LoadedImages } from './textNode';

/** What an interactive canvas attaches to every object's group. */
export type ObjectHandlers = {
  draggable: (id: string) => boolean;
  register: (id: string, node: Konva.Group | null) => void;
  onPointerDown: (id: string) => void;
  onDragMove: (id: string, e: Konva.KonvaEventObject<DragEvent>) => void;
  onDragEnd: (id: string, e: Konva.KonvaEventObject<DragEvent>) => void;
  onTransformEnd: (id: string, e: Konva.KonvaEventObject<Event>) => void;
};

type Props = {
  doc: DesignDocument;
  images: LoadedImages;
  /** Families of loaded fontUrl fonts (null: failed, drawn in Roboto). */
  fontFamilies: Record<string, string | null>;
  /** Changes whenever a font finished loading, so texts measure again. */
  fontsVersion: number;
  handlers?: ObjectHandlers;
};

/** All objects of the document in paint order, clipped to the print space. */
export function DesignObjects({ doc, images, fontFamilies, fontsVersion, handlers }: Props) {
  const { width, height } = doc.printSpace;
  return (
    <Group clipX={0} clipY={0} clipWidth={width} clipHeight={height}>
      {doc.objects.map((o) => {
        const common = {
          key: o.id,
          id: o.id,
          x: o.x,
          y: o.y,
          rotation: o.rotation ?? 0,
          draggable: handlers?.draggable(o.id) ?? false,
          ref: handlers ? (node: Konva.Group | null) => handlers.register(o.id, node) : undefined,
          onMouseDown: handlers ? () => handlers.onPointerDown(o.id) : undefined,
          onTouchStart: handlers ? () => handlers.onPointerDown(o.id) : undefined,
          onDragMove: handlers ? (e: Konva.KonvaEventObject<DragEvent>) => handlers.onDragMove(o.id, e) : undefined,
          onDragEnd: handlers ? (e: Konva.KonvaEventObject<DragEvent>) => handlers.onDragEnd(o.id, e) : undefined,
          onTransformEnd: handlers ? (e: Konva.KonvaEventObject<Event>) => handlers.onTransformEnd(o.id, e) : undefined,
        };
        return o.type === 'image' ? (
          <Group {...common}>
            <ImageNode o={o} image={images[o.src]} />
          </Group>
        ) : (
          <Group {...common}>
            <TextNode o={o} images={images} fontFamilies={fontFamilies} fontsVersion={fontsVersion} />
          </Group>
        );
      })}
    </Group>
  );
}

function ImageNode({ o, image }: { o: ImageObject; image: LoadedImages[string] | undefined }) {
  if (!image) return null;
  // Chromium's default (low) smoothing resamples bilinearly without mipmaps: a big downscale aliases.
  // High quality comes closer to the renderer's widened Catmull-Rom.
  return (
    <KonvaImage
      image={image}
      width={o.width}
      height={o.height}
      sceneFunc={(ctx, shape) => {
        ctx._context.imageSmoothingQuality = 'high';
        ctx.drawImage(image, 0, 0, shape.width(), shape.height());
      }}
    />
  );
}

function TextNode({
  o,
  images,
  fontFamilies,
  fontsVersion,
}: {
  o: TextObject;
  images: LoadedImages;
  fontFamilies: Record<string, string | null>;
  fontsVersion: number;
}) {
  const bg = o.backgroundUrl ? images[o.backgroundUrl] : undefined;
  // fontsVersion invalidates the measurement when a font arrives.
  const config = useMemo(
    () => textNodeConfig(o, bg && o.backgroundUrl ? { [o.backgroundUrl]: bg } : {}, fontFamilies),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [o, bg, fontFamilies, fontsVersion],
  );
  // Konva measures a text's lines when its attributes change: a new node once a font has arrived.
  return <Text key={fontsVersion} {...config} />;
}
