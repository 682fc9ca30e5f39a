// The design canvas alone on the render page, for measuring it in Chromium (frame times while dragging):
// the document's state lives here, as the campaign editor keeps it.

import { useState } from 'react';
import type { DesignDocument } from '../editor/document';
import { DesignCanvas } from '../editor/DesignCanvas';

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
  return (
    <DesignCanvas
      doc={doc}
      onChange={(next) => {
        setDoc(next);
        onChange(next);
      }}
      selectedId={selectedId}
      onSelect={setSelectedId}
      restricted={false}
      imageUrl={(src) => sources[src] ?? src}
    />
  );
}
