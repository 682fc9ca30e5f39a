// The design canvas alone on the render page, for measuring it in Chromium (frame times while dragging): the
// document lives in the editor's own state, changed by the editor's own actions (the canvas's mouse actions and its
// keys), as in the campaign editor.

import { useState, type KeyboardEvent } from 'react';
import type { Campaign, Product } from '../api/campaigns';
import type { DesignDocument } from '../editor/document';
import { DesignCanvas } from '../editor/DesignCanvas';
import { EDITOR } from '../editor/model';
import { actionForKey, perform, type Performance } from '../editor/model/actions';
import { focusOf, initialState, type EditorState } from '../editor/model/state';

/** A one-product campaign whose only design is doc. */
function campaignOf(doc: DesignDocument): Campaign {
  const ps = doc.printSpace;
  const name = ps.name ?? 'front';
  const space = {
    name, width: ps.width, height: ps.height, displayWidth: EDITOR.displayWidth, printType: ps.printType,
    isMain: true, viewWidth: EDITOR.displayWidth, viewHeight: Math.round((EDITOR.displayWidth * ps.height) / ps.width),
    DPI: ps.dpi, minDPI: ps.minDpi,
  };
  const product: Product = {
    id: 1, template_id: 1, name: 'Harness', product_type: 'tshirt', print_spaces: JSON.stringify([space]), full_printed: 0,
    options: '{"colors":[]}', default_option: '', mockup_type: 'flat', base_cost: 0, extra_print_cost: 0, personalized: false,
  };
  const idle = { status: 'none' as const, file_url: '', download_url: '', file_name: '', width: 0, height: 0, dpi: 0, file_size: 0, report: null, error: '' };
  return {
    id: 1, name: 'Harness', slug: 'harness', kind: 'regular', personalized: null, artwork_url: '', status: 'draft', created_at: '', updated_at: '',
    products: [product],
    designs: [{ id: 1, product_id: 1, print_space: name, design_json: doc, option: 'print', revision: 1, export: idle }],
  };
}

/** DesignCanvas over initial; every change of the document is also reported to onChange. */
export function EditorHarness({
  initial,
  sources,
  onChange,
}: {
  initial: DesignDocument;
  sources: Record<string, string>;
  onChange: (doc: DesignDocument) => void;
}) {
  const [state, setState] = useState<EditorState>(() => ({ ...initialState(campaignOf(initial)), restricted: false }));
  const run = (action: Performance) => {
    const next = perform(state, action);
    if (next === state) return;
    setState(next);
    const doc = focusOf(next)?.doc;
    if (doc && doc !== focusOf(state)?.doc) onChange(doc);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action = actionForKey(event, state, 'canvas');
    if (!action) return;
    event.preventDefault();
    run(action);
  };
  const doc = focusOf(state)?.doc ?? initial;
  return (
    <DesignCanvas
      doc={doc}
      perform={run}
      onKeyDown={onKeyDown}
      selectedId={state.selectedId}
      restricted={state.restricted}
      imageUrl={(src) => sources[src] ?? src}
    />
  );
}
