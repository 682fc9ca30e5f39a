// The contract between the 3D mockup page and the renderer's Chrome pool (renderer/chromepool).

/** What window.renderMockup3d draws: URLs of the page's own origin and the canvas size in CSS pixels. */
export interface Mockup3dJob {
  /** The GLB model: a mesh named "print" takes the design, one named "body" the colour; the rest keeps its own material. */
  model: string;
  /** The design image, mapped onto the print mesh's UVs (0,0 = top-left of the print space). */
  design: string;
  /** The product colour of the body mesh, '#rrggbb'; empty keeps the model's own colour. */
  color: string;
  width: number;
  height: number;
}

export interface Mockup3dApi {
  /**
   * Draws the job and resolves with the canvas as a PNG data URL, read from the drawing buffer that
   * preserveDrawingBuffer keeps, so it holds the drawn frame whatever the compositor did since.
   */
  renderMockup3d(job: Mockup3dJob): Promise<string>;
}
