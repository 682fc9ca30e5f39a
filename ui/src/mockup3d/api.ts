// The contract between the 3D mockup page and the renderer's Chrome pool (renderer/chromepool).

/** What window.renderMockup3d draws: URLs of the page's own origin and the canvas size in CSS pixels. */
export interface Mockup3dJob {
  /** The GLB model: a mesh named "print" takes the design, the rest keeps its own material. */
  model: string;
  /** The design image, mapped onto the print mesh's UVs (0,0 = top-left of the print space). */
  design: string;
  width: number;
  height: number;
}

export interface Mockup3dApi {
  /** Resolves once the model and the design are drawn on the canvas (kept with preserveDrawingBuffer). */
  renderMockup3d(job: Mockup3dJob): Promise<void>;
}
