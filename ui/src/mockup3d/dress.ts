// How the 3D mockup scene dresses a product model: the design on its print mesh, the product colour on its body.

import {
  type BufferGeometry,
  type Material,
  Mesh,
  MeshLambertMaterial,
  MeshStandardMaterial,
  type Object3D,
  SRGBColorSpace,
  Texture,
} from 'three';

/** A dressed copy of a model: what dress returns. */
export interface Dressed {
  object: Object3D;
  /** Frees the copy's own texture and materials (the model's stay as loaded). */
  dispose: () => void;
}

/**
 * A copy of the model `scene` with the design on its mesh named "print" and, when `color` (a CSS colour such as
 * '#1f3a68') is given, its mesh named "body" in that colour: the garment (or mug) takes the product colour while
 * the print keeps the design's own. Other meshes keep their materials. The model and the design texture are not
 * changed, so a loader's cached copies stay as loaded for their other users.
 *
 * The print and the body are matte Lambert surfaces: in the renderer's software WebGL (SwiftShader) the
 * physically based shading of a MeshStandardMaterial made most of a render's time, and on cloth or a mug's
 * glaze at the roughness the models use its highlights hardly show.
 */
export function dress(scene: Object3D, design: Texture, color?: string): Dressed {
  const map = design.clone();
  map.colorSpace = SRGBColorSpace;
  map.flipY = false; // glTF UVs start at the image's top-left corner
  map.anisotropy = 4;
  map.needsUpdate = true;
  const made: Material[] = [];
  const object = scene.clone(true);
  object.traverse((node) => {
    if (!(node instanceof Mesh)) return;
    if (node.name === 'print') {
      node.material = new MeshLambertMaterial({ map, transparent: true });
      made.push(node.material as Material);
    } else if (node.name === 'body' && node.material instanceof MeshStandardMaterial) {
      const own = node.material;
      const body = new MeshLambertMaterial({ color: own.color, map: own.map, side: own.side });
      if (color) body.color.set(color);
      node.material = body;
      made.push(body);
    }
  });
  return {
    object,
    dispose: () => {
      map.dispose();
      made.forEach((m) => m.dispose());
    },
  };
}

/**
 * Frees what a loaded model holds for drawing once nothing shows it any more: its geometries, its materials and their
 * textures. For a page that loads a model per render (the renderer's 3D page); a model a loader caches for others stays.
 */
export function disposeModel(scene: Object3D) {
  scene.traverse((node) => {
    if (!(node instanceof Mesh)) return;
    (node.geometry as BufferGeometry).dispose();
    for (const material of [node.material as Material | Material[]].flat()) {
      for (const value of Object.values(material)) if (value instanceof Texture) value.dispose();
      material.dispose();
    }
  });
}
