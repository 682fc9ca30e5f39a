// The 3D mockup scene: a GLB product with the design as the texture of its "print" mesh, soft lights and a
// fixed camera framed on the model. The Chrome pool's page draws it once per render; the editor can show
// the same MockupCanvas as a live preview.

import { Canvas, useLoader, useThree } from '@react-three/fiber';
import { Component, type ReactNode, Suspense, useEffect, useMemo } from 'react';
import { Box3, Mesh, MeshStandardMaterial, SRGBColorSpace, TextureLoader, Vector3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

/** The colour behind the product; the renderer's blank check treats a canvas of only this colour as blank. */
export const BACKGROUND = '#f3f3f1';

/** The fixed viewing direction (from the model towards the camera): in front, a little above. */
const VIEW = new Vector3(0, 0.22, 1).normalize();
const FOV = 30;

export interface MockupSceneProps {
  model: string;
  design: string;
  /** Turn of the product about its vertical axis, in radians (the editor's preview lets the seller drag it). */
  turn?: number;
  /** Called after the first frame with the model and the design has been drawn. */
  onDrawn?: () => void;
}

/** The product with the design on it, framed by the default camera. Render it inside a react-three-fiber Canvas. */
export function MockupScene({ model, design, turn = 0, onDrawn }: MockupSceneProps) {
  const gltf = useLoader(GLTFLoader, model);
  const texture = useLoader(TextureLoader, design);
  const { gl, scene: root, camera, size } = useThree();

  const { object, map } = useMemo(() => {
    // A copy: the loader's cached texture stays as loaded for other users of the same URL.
    const map = texture.clone();
    map.colorSpace = SRGBColorSpace;
    map.flipY = false; // glTF UVs start at the image's top-left corner
    map.anisotropy = 4;
    map.needsUpdate = true;
    const copy = gltf.scene.clone(true);
    copy.traverse((node) => {
      if (node instanceof Mesh && node.name === 'print') {
        node.material = new MeshStandardMaterial({ map, transparent: true, roughness: 0.9, metalness: 0 });
      }
    });
    return { object: copy, map };
  }, [gltf, texture]);

  // A page that draws many designs (the pool's reused tab, the editor's preview) frees each one after use.
  useEffect(() => () => map.dispose(), [map]);
  useEffect(() => () => useLoader.clear(TextureLoader, design), [design]);

  useEffect(() => {
    // Frame the bounding box from the fixed direction so the product fills the canvas the same way each time.
    const box = new Box3().setFromObject(object);
    const centre = box.getCenter(new Vector3());
    const radius = box.getSize(new Vector3()).length() / 2;
    const aspect = size.width / size.height;
    const halfFov = (FOV * Math.PI) / 360;
    const fit = Math.max(radius / Math.tan(halfFov), radius / (Math.tan(halfFov) * aspect));
    camera.position.copy(centre).addScaledVector(VIEW, fit * 1.02);
    camera.lookAt(centre);
    camera.updateProjectionMatrix();
    gl.render(root, camera);
    onDrawn?.();
  }, [object, gl, root, camera, size, onDrawn]);

  return <primitive object={object} rotation-y={turn} />;
}

/** Reports a loading error (a missing model or design) instead of leaving the page waiting. */
class LoadErrors extends Component<{ onError: (error: Error) => void; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: Error) {
    this.props.onError(error);
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

export interface MockupCanvasProps extends MockupSceneProps {
  width: number;
  height: number;
  onError?: (error: Error) => void;
  /** 'demand' (default) redraws on changes, for an interactive preview; 'never' draws only when MockupScene
   * has its model and design, once, for the render page. */
  frameloop?: 'demand' | 'never';
}

/** A canvas of width x height CSS pixels (device pixel ratio 1) showing MockupScene in soft light. */
export function MockupCanvas({ width, height, onError, frameloop = 'demand', ...scene }: MockupCanvasProps) {
  return (
    <div style={{ width, height }}>
      <Canvas
        dpr={1}
        flat
        frameloop={frameloop}
        // Keeps the drawn frame after compositing, so a screenshot can never catch a cleared buffer.
        gl={{ preserveDrawingBuffer: true, antialias: false }}
        camera={{ fov: FOV, near: 0.01, far: 100 }}
      >
        <color attach="background" args={[BACKGROUND]} />
        <hemisphereLight args={['#ffffff', '#b8b4ac', 1.1]} />
        <directionalLight position={[1.5, 2.5, 4]} intensity={1.4} />
        <directionalLight position={[-3, 1, 2]} intensity={0.35} />
        <LoadErrors onError={(error) => onError?.(error)}>
          <Suspense fallback={null}>
            <MockupScene {...scene} />
          </Suspense>
        </LoadErrors>
      </Canvas>
    </div>
  );
}
