// The 3D mockup page (mockup3d.html): window.renderMockup3d draws a GLB product with a design at a given
// size and resolves with the drawn canvas as a PNG, which the renderer's Chrome pool checks and keeps.

import { createRoot } from 'react-dom/client';
import { type Object3D, type Texture, TextureLoader } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { disposeModel } from './dress';
import { MockupObject, MockupStage } from './MockupScene';
import type { Mockup3dApi } from './api';

const page = window as Window & Partial<Mockup3dApi>;

const container = document.getElementById('mockup3d');
if (!container) throw new Error('mockup3d.html has no #mockup3d element');
const root = createRoot(container);
const gltfLoader = new GLTFLoader();
const textureLoader = new TextureLoader();

// What the last render drew: the page loads a model and a design per render and frees them once the next render has
// replaced them, so a tab kept for many renders does not pile them up until it is recycled.
let shown: { model: Object3D; design: Texture } | undefined;

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
  const png = canvas.toDataURL('image/png');
  if (shown) {
    disposeModel(shown.model);
    shown.design.dispose();
  }
  shown = { model: gltf.scene, design: texture };
  return png;
};
