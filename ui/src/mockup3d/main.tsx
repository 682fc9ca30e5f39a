// The 3D mockup page (mockup3d.html): window.renderMockup3d draws a GLB product with a design at a given
// size and resolves with the drawn canvas as a PNG, which the renderer's Chrome pool checks and keeps.

import { createRoot } from 'react-dom/client';
import { TextureLoader } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MockupObject, MockupStage } from './MockupScene';
import type { Mockup3dApi } from './api';

const page = window as Window & Partial<Mockup3dApi>;

const container = document.getElementById('mockup3d');
if (!container) throw new Error('mockup3d.html has no #mockup3d element');
const root = createRoot(container);
const gltfLoader = new GLTFLoader();
const textureLoader = new TextureLoader();

// The model and the design load before React sees them: a component that suspended on them would be revealed
// only after React's fallback throttle (300 ms), most of a render in a kept tab. The canvas stays mounted
// between renders, so a reused tab keeps its WebGL context and compiled shaders.
page.renderMockup3d = async (job) => {
  const [gltf, texture] = await Promise.all([gltfLoader.loadAsync(job.model), textureLoader.loadAsync(job.design)]);
  await new Promise<void>((resolve) => {
    root.render(
      <MockupStage width={job.width} height={job.height} frameloop="never">
        <MockupObject scene={gltf.scene} texture={texture} color={job.color || undefined} onDrawn={resolve} />
      </MockupStage>,
    );
  });
  const canvas = container.querySelector('canvas');
  if (!canvas) throw new Error('the 3D page drew no canvas');
  return canvas.toDataURL('image/png');
};
