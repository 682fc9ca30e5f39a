import { Alert, Card, Center, Loader, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type Konva from 'konva';
import { useCallback, useMemo, useRef, useState, type PointerEvent } from 'react';
import type { Model3D } from '../api/campaigns';
import type { DesignDocument } from '../editor/document';
import { useDesignAssets } from '../editor/assets';
import { MockupCanvas } from '../mockup3d/MockupScene';
import { RenderStage } from '../render/RenderStage';

/** The width the design is drawn at for the preview's texture. */
const TEXTURE_WIDTH = 1024;
/** The preview's size in CSS pixels: the renderer's 1500 x 1875 mockup, smaller. */
const WIDTH = 360;
const HEIGHT = 450;
/** How long an edit settles before the texture is drawn again. */
const REDRAW_MS = 250;
/** Radians of turn per pixel dragged. */
const TURN_PER_PX = 0.01;

interface Design3DPreviewProps {
  doc: DesignDocument;
  model: Model3D;
  /** The product colour the garment shows (productColor); undefined keeps the model's own. */
  color?: string;
  imageUrl: (src: string) => string;
  fontUrl: (src: string) => string;
}

/**
 * The editor's live 3D preview: the print space's design, drawn in the browser, on the product's GLB model in
 * the same react-three-fiber scene, in the product's colour, the renderer's Chrome pool draws the saved 3D mockups
 * with. Drag to turn it.
 */
export function Design3DPreview({ doc, model, color, imageUrl, fontUrl }: Design3DPreviewProps) {
  const [settled] = useDebouncedValue(doc, REDRAW_MS);
  const { images, fontFamilies } = useDesignAssets(settled, imageUrl, fontUrl);
  const [texture, setTexture] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [drawn, setDrawn] = useState(false);
  const [turn, setTurn] = useState(0);
  const drag = useRef<number | null>(null);

  const done = useCallback((stage: Konva.Stage) => {
    try {
      setTexture(stage.toDataURL({ mimeType: 'image/png' }));
    } catch {
      // An artwork served without CORS taints the canvas; the saved 3D mockup still shows it.
      setFailed('This artwork cannot be previewed in 3D here; save to see the 3D mockup.');
    }
  }, []);
  const onDrawn = useCallback(() => setDrawn(true), []);
  const job = useMemo(() => ({ doc: settled, images, fontFamilies, width: TEXTURE_WIDTH, done }), [settled, images, fontFamilies, done]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = event.clientX;
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current === null) return;
    const dx = event.clientX - drag.current;
    drag.current = event.clientX;
    setTurn((t) => t + dx * TURN_PER_PX);
  };

  return (
    <Card withBorder radius="lg" padding="md" data-testid="design-3d-preview" data-drawn={drawn}>
      <Title order={2} fz="h5" mb={4}>
        3D preview
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        {model.name} · drag to turn
      </Text>
      <div style={{ position: 'absolute', width: 0, height: 0, overflow: 'hidden' }} aria-hidden>
        <RenderStage job={job} />
      </div>
      {failed ? (
        <Alert color="yellow" variant="light">
          {failed}
        </Alert>
      ) : texture ? (
        <div
          style={{ cursor: 'grab', touchAction: 'none', width: WIDTH, maxWidth: '100%' }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={() => (drag.current = null)}
          onPointerCancel={() => (drag.current = null)}
        >
          <MockupCanvas
            model={model.url}
            design={texture}
            color={color}
            turn={turn}
            width={WIDTH}
            height={HEIGHT}
            onDrawn={onDrawn}
            onError={(error) => setFailed(`The 3D preview failed: ${error.message}`)}
          />
        </div>
      ) : (
        <Center h={HEIGHT}>
          <Loader size="sm" aria-label="Drawing the 3D preview" />
        </Center>
      )}
    </Card>
  );
}
