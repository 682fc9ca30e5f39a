// The personalization preview's drawing: the buyer's objects with the editor's own Konva nodes (editor/DesignObjects),
// warped onto the print area of the base mockup shown by the page (docs/personalization.md).

import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Group, Layer, Stage } from 'react-konva';
import { useDesignAssets } from '../editor/assets';
import { DesignObjects } from '../editor/DesignObjects';
import { CANVAS_WIDTH, type DocStore, type PreviewData } from './form';
import { homography, matrix3d, type Point } from './quad';

/** The buyer's objects at CANVAS_WIDTH, warped onto the mockup image's quad. */
export function Preview({ docs, data, image }: { docs: DocStore; data: PreviewData; image: HTMLImageElement }) {
  const doc = useSyncExternalStore(docs.subscribe, docs.get);
  const asset = (src: string) => (src.startsWith('blob:') ? src : data.asset + encodeURIComponent(src));
  const { images, fontFamilies, fontsVersion } = useDesignAssets(doc, asset, asset);
  const [size, setSize] = useState({ width: image.clientWidth, height: image.clientHeight });
  useEffect(() => {
    const observer = new ResizeObserver(() => setSize({ width: image.clientWidth, height: image.clientHeight }));
    observer.observe(image);
    return () => observer.disconnect();
  }, [image]);
  const ps = doc.printSpace;
  const width = CANVAS_WIDTH;
  const height = Math.round((CANVAS_WIDTH * ps.height) / ps.width);
  const transform = useMemo(() => {
    const quad = data.mockup!.quad.map(([x, y]) => [x * size.width, y * size.height] as Point);
    return matrix3d(homography(width, height, quad));
  }, [data.mockup, size, width, height]);
  const scale = width / ps.width;
  return (
    <div style={{ position: 'absolute', left: 0, top: 0, width, height, transform, transformOrigin: '0 0', pointerEvents: 'none' }}>
      <Stage width={width} height={height} listening={false}>
        <Layer>
          <Group scaleX={scale} scaleY={scale}>
            <DesignObjects doc={doc} images={images} fontFamilies={fontFamilies} fontsVersion={fontsVersion} />
          </Group>
        </Layer>
      </Stage>
    </div>
  );
}

