// The 3D mockup page (mockup3d.html): window.renderMockup3d draws a GLB product with a design at a given
// size and resolves once the frame is on the canvas; the renderer's Chrome pool then takes a screenshot.

import { createRoot } from 'react-dom/client';
import { MockupCanvas } from './MockupScene';
import type { Mockup3dApi } from './api';

const page = window as Window & Partial<Mockup3dApi>;

const container = document.getElementById('mockup3d');
if (!container) throw new Error('mockup3d.html has no #mockup3d element');
const root = createRoot(container);

// The canvas stays mounted between renders, so a reused tab keeps its WebGL context and compiled shaders.
page.renderMockup3d = (job) =>
  new Promise<void>((resolve, reject) => {
    root.render(
      <MockupCanvas
        {...job}
        frameloop="never"
        // One animation frame: the drawn (and preserved) frame reaches the compositor before the screenshot.
        onDrawn={() => requestAnimationFrame(() => resolve())}
        onError={reject}
      />,
    );
  });
