import { describe, expect, it } from 'vitest';
import { homography, matrix3d, project, type Point } from './quad';

describe('the preview canvas on the mockup quad', () => {
  const cases: { name: string; quad: Point[] }[] = [
    { name: 'a shirt front (a rectangle)', quad: [[140, 104], [260, 104], [260, 248], [140, 248]] },
    { name: 'a mug seen at an angle', quad: [[116, 132], [256, 137], [256, 275], [116, 280]] },
  ];
  it.each(cases)('takes the canvas corners to the quad: $name', ({ quad }) => {
    const hm = homography(600, 720, quad);
    const corners: Point[] = [[0, 0], [600, 0], [600, 720], [0, 720]];
    corners.forEach(([x, y], i) => {
      const [X, Y] = project(hm, x, y);
      expect(X).toBeCloseTo(quad[i]![0], 9);
      expect(Y).toBeCloseTo(quad[i]![1], 9);
    });
  });

  it('scales a rectangle without perspective', () => {
    const hm = homography(100, 50, [[10, 20], [210, 20], [210, 120], [10, 120]]);
    expect(hm[6]).toBeCloseTo(0, 12);
    expect(hm[7]).toBeCloseTo(0, 12);
    const m = /^matrix3d\((.*)\)$/.exec(matrix3d(hm))![1]!.split(',').map(Number);
    [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 10, 20, 0, 1].forEach((want, i) => expect(m[i]).toBeCloseTo(want, 9));
  });

  it('refuses a quad folded onto a line', () => {
    expect(() => homography(10, 10, [[0, 0], [0, 0], [0, 0], [0, 0]])).toThrow('degenerate');
  });
});
