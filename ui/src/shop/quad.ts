// Where the personalization preview's canvas goes on the mockup: the projective transform taking the canvas's
// rectangle to the print area's four corners on the photo (the quad of the mockup template, renderer/mockup), as a
// CSS matrix3d. The renderer bends the print further along the folds; the preview does not.

export type Point = readonly [number, number];

/** Solves the 8x8 linear system a·x = b by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const p = m[col]![col]!;
    if (Math.abs(p) < 1e-12) throw new Error('the quad is degenerate');
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / p;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/**
 * The homography [h0..h7] (h8 = 1) taking (0,0), (w,0), (w,h), (0,h) to the quad's top-left, top-right,
 * bottom-right and bottom-left corners: X = (h0 x + h1 y + h2) / (h6 x + h7 y + 1), Y likewise with h3..h5.
 */
export function homography(w: number, h: number, quad: readonly Point[]): number[] {
  const from: Point[] = [[0, 0], [w, 0], [w, h], [0, h]];
  const a: number[][] = [];
  const b: number[] = [];
  from.forEach(([x, y], i) => {
    const [X, Y] = quad[i]!;
    a.push([x, y, 1, 0, 0, 0, -x * X, -y * X]);
    b.push(X);
    a.push([0, 0, 0, x, y, 1, -x * Y, -y * Y]);
    b.push(Y);
  });
  return solve(a, b);
}

/** Applies a homography to a point. */
export function project(hm: readonly number[], x: number, y: number): Point {
  const d = hm[6]! * x + hm[7]! * y + 1;
  return [(hm[0]! * x + hm[1]! * y + hm[2]!) / d, (hm[3]! * x + hm[4]! * y + hm[5]!) / d];
}

/** The CSS matrix3d (column-major) of a homography, for an element whose transform-origin is 0 0. */
export function matrix3d(hm: readonly number[]): string {
  const [h0, h1, h2, h3, h4, h5, h6, h7] = hm as [number, number, number, number, number, number, number, number];
  return `matrix3d(${[h0, h3, 0, h6, h1, h4, 0, h7, 0, 0, 1, 0, h2, h5, 0, 1].join(',')})`;
}
