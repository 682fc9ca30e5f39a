// Test-only pages stay out of the UI that scripts/dev and the Dockerfile serve: only the browser tests' build
// (vite --mode e2e, written to dist-e2e) has render.html; the 3D mockup and invoice pages the renderer loads are in both.
import { E2E_MODE, pages } from '../../vite.config';

describe('build pages', () => {
  it('production has the app and the pages the renderer prints only', () => {
    expect(Object.values(pages('production')).sort()).toEqual(['index.html', 'invoice.html', 'mockup3d.html', 'src/shop/personalize.tsx']);
  });
  it('the e2e build adds the fidelity render page', () => {
    expect(Object.values(pages(E2E_MODE)).sort()).toEqual(['index.html', 'invoice.html', 'mockup3d.html', 'render.html', 'src/shop/personalize.tsx']);
  });
});
