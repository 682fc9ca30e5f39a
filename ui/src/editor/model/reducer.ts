// The editor's reducer (for React's useReducer): the actions a person performs, and what the bff answers.

import type { Campaign } from '../../api/campaigns';
import type { PlacedErrors } from '../../campaigns/editorState';
import { perform, type Performance } from './actions';
import { adoptProducts, markSaved, type EditorState } from './state';

export type EditorEvent =
  | ({ type: 'perform' } & Performance)
  /** The bff added or removed a product. */
  | Readonly<{ type: 'productsChanged'; campaign: Campaign; op: { add: number } | { remove: number } }>
  /** The bff saved what `sent` holds. */
  | Readonly<{ type: 'saved'; campaign: Campaign; sent: EditorState['saved'] }>
  /** A save was refused, by the editor's own checks or by the bff. */
  | Readonly<{ type: 'saveRefused'; errors: PlacedErrors }>;

export function editorReducer(state: EditorState, event: EditorEvent): EditorState {
  switch (event.type) {
    case 'perform':
      return perform(state, event);
    case 'productsChanged':
      return adoptProducts(state, event.campaign, event.op);
    case 'saved':
      return markSaved(state, event.campaign, event.sent);
    case 'saveRefused':
      return { ...state, errors: event.errors };
  }
}
