// The page API of render.html, shared with the end-to-end test that drives it.

import type { DesignDocument } from '../editor/document';

/** What render.html puts on window (src/render/main.tsx). */
export type RenderApi = {
  /**
   * Renders doc; sources maps every src, backgroundUrl and fontUrl of it to a URL the page can fetch.
   * width is the output width in pixels (the print width by default); the height keeps the aspect.
   */
  renderDesign: (doc: DesignDocument, sources: Record<string, string>, width?: number) => Promise<string>;
  /**
   * Mounts the editor's DesignCanvas (500 px wide) over doc instead, for measurements; resolves once its
   * images have loaded. window.editedDesign holds the latest document the canvas produced.
   */
  mountEditor: (doc: DesignDocument, sources: Record<string, string>) => Promise<void>;
  editedDesign?: DesignDocument;
};
