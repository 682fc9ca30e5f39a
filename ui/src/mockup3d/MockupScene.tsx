// The 3D mockup scene: a GLB product with the design as the texture of its "print" mesh, its "body" mesh in the
// product colour, soft lights and a fixed camera framed on the model. The Chrome pool's page draws it once per
// render (main.tsx); the editor shows the same scene as a live preview (MockupCanvas).

import { Canvas, useLoader, useThree } from '@react-three/fiber';
import { Component, type ReactNode, Suspense, useEffect, useMemo } from 'react';
import { Box3, type Object3D, type Texture, TextureLoader, Vector3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { dress } from './dress';

/** The colour behind the product; the renderer's blank check treats a canvas of only this colour as blank. */
export const BACKGROUND = '#f3f3f1';

/**
 * The viewing direction (from the model towards the camera): the model's own (its scene's `extras.view`, e.g. a
 * poster seen from the side at eye level), else in front, a little above.
 */
const VIEW = new Vector3(0, 0.22, 1).normalize();

function viewOf(model: Object3D): Vector3 {
  const v: unknown = model.userData.view;
  if (Array.isArray(v) && v.length === 3 && v.every((n): n is number => typeof n === 'number' && Number.isFinite(n))) {
    const [x, y, z] = v as [number, number, number];
    const dir = new Vector3(x, y, z);
    if (dir.lengthSq() > 0) return dir.normalize();
  }
  return VIEW;
}
const FOV = 30;

export interface MockupObjectProps {
  /** The loaded model (a GLTF's scene). */
  scene: Object3D;
  /** The loaded design. */
  texture: Texture;
  /** The product colour of the model's body (a CSS colour); without it the body keeps the model's colour. */
  color?: string;
  /** Turn of the product about its vertical axis, in radians (the editor's preview lets the seller drag it). */
  turn?: number;
  /** Called once the model with the design has been drawn. */
  onDrawn?: () => void;
}

/** A loaded model dressed with a loaded design, framed by the default camera and drawn. Render it inside MockupStage. */
export function MockupObject({ scene, texture, color, turn = 0, onDrawn }: MockupObjectProps) {
  const { gl, scene: root, camera, size } = useThree();
  const dressed = useMemo(() => dress(scene, texture, color), [scene, texture, color]);
  // A page that draws many designs (the pool's reused tab, the editor's preview) frees each one after use.
  useEffect(() => () => dressed.dispose(), [dressed]);

  useEffect(() => {
    // Frame the bounding box from the fixed direction so the product fills the canvas the same way each time.
    const box = new Box3().setFromObject(dressed.object);
    const centre = box.getCenter(new Vector3());
    const radius = box.getSize(new Vector3()).length() / 2;
    const aspect = size.width / size.height;
    const halfFov = (FOV * Math.PI) / 360;
    const fit = Math.max(radius / Math.tan(halfFov), radius / (Math.tan(halfFov) * aspect));
    camera.position.copy(centre).addScaledVector(viewOf(dressed.object), fit * 1.02);
    camera.lookAt(centre);
    camera.updateProjectionMatrix();
    gl.render(root, camera);
    onDrawn?.();
  }, [dressed, gl, root, camera, size, onDrawn]);

  return <primitive object={dressed.object} rotation-y={turn} />;
}

export interface MockupSceneProps extends Omit<MockupObjectProps, 'scene' | 'texture'> {
  /** URL of the GLB model. */
  model: string;
  /** URL of the design image. */
  design: string;
}

/** MockupObject for a model and a design given by URL, loaded with suspense. */
export function MockupScene({ model, design, ...rest }: MockupSceneProps) {
  const gltf = useLoader(GLTFLoader, model);
  const texture = useLoader(TextureLoader, design);
  useEffect(() => () => useLoader.clear(TextureLoader, design), [design]);
  return <MockupObject scene={gltf.scene} texture={texture} {...rest} />;
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

export interface MockupStageProps {
  width: number;
  height: number;
  /** 'demand' (default) redraws on changes, for an interactive preview; 'never' draws only when MockupObject
   * has its model and design, once, for the render page. */
  frameloop?: 'demand' | 'never';
  children: ReactNode;
}

/** A canvas of width x height CSS pixels (device pixel ratio 1) in soft light, for MockupObject or MockupScene. */
export function MockupStage({ width, height, frameloop = 'demand', children }: MockupStageProps) {
  return (
    <div style={{ width, height }}>
      <Canvas
        dpr={1}
        flat
        frameloop={frameloop}
        // Keeps the drawn frame after compositing, so reading the canvas back can never catch a cleared buffer.
        gl={{ preserveDrawingBuffer: true, antialias: false }}
        camera={{ fov: FOV, near: 0.01, far: 100 }}
      >
        <color attach="background" args={[BACKGROUND]} />
        <hemisphereLight args={['#ffffff', '#b8b4ac', 1.1]} />
        <directionalLight position={[1.5, 2.5, 4]} intensity={1.4} />
        <directionalLight position={[-3, 1, 2]} intensity={0.35} />
        {children}
      </Canvas>
    </div>
  );
}

export interface MockupCanvasProps extends MockupSceneProps, Omit<MockupStageProps, 'children'> {
  onError?: (error: Error) => void;
}

/** MockupScene on a MockupStage, reporting loading errors: the editor's preview. */
export function MockupCanvas({ width, height, frameloop, onError, ...scene }: MockupCanvasProps) {
  return (
    <MockupStage width={width} height={height} frameloop={frameloop}>
      <LoadErrors onError={(error) => onError?.(error)}>
        <Suspense fallback={null}>
          <MockupScene {...scene} />
        </Suspense>
      </LoadErrors>
    </MockupStage>
  );
}
