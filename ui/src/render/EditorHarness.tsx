// The design canvas alone on the render page, for measuring it in Chromium (frame times while dragging):
// the document's state lives here, as the campaign editor keeps it.

import { useState } from 'react';
import type { DesignDocument } from '../editor/document';
import { DesignCanvas } from '../editor/DesignCanvas';
import { transformObject } from '../editor/model';
import type { CanvasPerformance } from '../editor/model/actions';

/** DesignCanvas over doc; every change is also reported to onChange. */
export function EditorHarness({
  initial,
  sources,
  onChange,
}: {
  initial: DesignDocument;
  sources: Record<string, string>;
  onChange: (doc: DesignDocument) => void;
}) {
  const [doc, setDoc] = useState(initial);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const perform = (action: CanvasPerformance) => {
    if (action.name === 'select') {
      setSelectedId(action.value);
      return;
    }
    const { id, box, natural } = action.value;
    const next = transformObject(doc, id, box, { restricted: false, natural });
    setDoc(next);
    onChange(next);
  };
  return (
    <DesignCanvas
      doc={doc}
      perform={perform}
      onKeyDown={() => {}}
      selectedId={selectedId}
      restricted={false}
      imageUrl={(src) => sources[src] ?? src}
    />
  );
}
