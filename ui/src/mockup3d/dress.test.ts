import { BufferGeometry, Color, Group, Mesh, MeshLambertMaterial, MeshStandardMaterial, type Object3D, Texture } from 'three';
import { describe, expect, it, vi } from 'vitest';
import { disposeModel, dress } from './dress';

/** A model as GLTFLoader gives it: a body, a print area and a frame, each with its own standard material. */
function model() {
  const scene = new Group();
  const mesh = (name: string, color: string) => {
    const m = new Mesh(new BufferGeometry(), new MeshStandardMaterial({ color }));
    m.name = name;
    scene.add(m);
    return m;
  };
  return { scene, body: mesh('body', '#ebebe6'), print: mesh('print', '#ffffff'), frame: mesh('frame', '#0d0d0d') };
}

const meshNamed = (root: Object3D, name: string) => root.getObjectByName(name) as Mesh;

describe('dress', () => {
  it('puts the design on the print mesh and the product colour on the body only', () => {
    const { scene, body, frame } = model();
    const design = new Texture();
    const dressed = dress(scene, design, '#1f3a68');

    const dressedBody = meshNamed(dressed.object, 'body').material as MeshLambertMaterial;
    expect(dressedBody).toBeInstanceOf(MeshLambertMaterial);
    expect(dressedBody.color.getHexString()).toBe('1f3a68');

    const printMaterial = meshNamed(dressed.object, 'print').material as MeshLambertMaterial;
    expect(printMaterial.map?.source).toBe(design.source);
    expect(printMaterial.color.getHexString()).toBe('ffffff');

    // The frame keeps its own material, and the loaded model is not changed.
    expect(meshNamed(dressed.object, 'frame').material).toBe(frame.material);
    expect(body.material.color.getHexString()).toBe('ebebe6');
    expect(meshNamed(scene, 'print').material).not.toBe(printMaterial);
  });

  it('keeps the body in the model colour without a product colour', () => {
    const { scene } = model();
    const dressed = dress(scene, new Texture());
    const dressedBody = meshNamed(dressed.object, 'body').material as MeshLambertMaterial;
    expect(dressedBody.color.equals(new Color('#ebebe6'))).toBe(true);
  });
});

describe('disposeModel', () => {
  it('frees every geometry, material and material texture of the model', () => {
    const { scene, body, print, frame } = model();
    const map = new Texture();
    body.material.map = map;
    const spies = [body, print, frame].flatMap((m) => [vi.spyOn(m.geometry, 'dispose'), vi.spyOn(m.material, 'dispose')]);
    const mapSpy = vi.spyOn(map, 'dispose');
    disposeModel(scene);
    for (const spy of [...spies, mapSpy]) expect(spy).toHaveBeenCalledOnce();
  });
});
