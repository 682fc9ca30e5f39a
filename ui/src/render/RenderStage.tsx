// The stage of the fidelity render page: the editor's DesignObjects at the output width, nothing else.

import type Konva from 'konva';
import { useEffect, useRef } from 'react';
import { Group, Layer, Stage } from 'react-konva';
import type { DesignDocument } from '../editor/document';
import { DesignObjects } from '../editor/DesignObjects';
import type { LoadedImages } from '../editor/textNode';

/** One render: the document, its loaded assets, the output width and the callback given the drawn stage. */
export type RenderJob = {
  doc: DesignDocument;
  images: LoadedImages;
  fontFamilies: Record<string, string | null>;
  width: number;
  done: (stage: Konva.Stage) => void;
};

/** A Konva stage drawing the document at job.width; calls job.done once it is on the canvas. */
export function RenderStage({ job }: { job: RenderJob }) {
  const stage = useRef<Konva.Stage>(null);
  const { doc, width } = job;
  const scale = width / doc.printSpace.width;
  useEffect(() => {
    if (stage.current) job.done(stage.current);
  }, [job]);
  return (
    <Stage ref={stage} width={width} height={Math.round(doc.printSpace.height * scale)}>
      <Layer>
        <Group scaleX={scale} scaleY={scale}>
          <DesignObjects doc={doc} images={job.images} fontFamilies={job.fontFamilies} fontsVersion={1} />
        </Group>
      </Layer>
    </Stage>
  );
}

