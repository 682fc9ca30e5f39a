import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The bff serves /api, /admin and the health checks; in development Vite forwards them so the
// app runs against a real backend exactly as it does when the bff serves ui/dist.
const backend = process.env.PRESSROOM_BFF_URL ?? 'http://127.0.0.1:8080';
const proxied = ['/api', '/admin', '/healthz', '/readyz'];

/** The build mode of scripts/test's browser tests: `vite build --mode e2e` (npm run build:e2e). */
export const E2E_MODE = 'e2e';

/**
 * The HTML pages a build holds. mockup3d.html is the 3D mockup page the renderer's Chrome pool loads
 * (src/mockup3d) and invoice.html the invoice page it prints (src/invoice): production. render.html, the fidelity render page (src/render: the editor's Konva drawing),
 * is only for the browser tests, so only the e2e build, written to dist-e2e, has it; the build scripts/dev and
 * the Dockerfile serve (dist) does not. src/shop/personalize.tsx is the storefront's personalization preview, which
 * the storefront finds in the build's manifest (.vite/manifest.json).
 */
export function pages(mode: string): Record<string, string> {
  // personalize is a script, not a page: the storefront's product pages load it (through the manifest).
  const production = { main: 'index.html', mockup3d: 'mockup3d.html', invoice: 'invoice.html', personalize: 'src/shop/personalize.tsx' };
  return mode === E2E_MODE ? { ...production, render: 'render.html' } : production;
}

export default defineConfig(({ mode }) => ({
  base: '/',
  plugins: [react()],
  build: {
    outDir: mode === E2E_MODE ? 'dist-e2e' : 'dist',
    emptyOutDir: true,
    manifest: true,
    rolldownOptions: {
      input: pages(mode),
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/]/ },
            // its-fine is both react-three-fiber's and react-konva's: a chunk of its own keeps three.js out of the
            // storefront preview and Konva out of the 3D page.
            { name: 'its-fine', test: /node_modules[\\/]its-fine[\\/]/ },
            // three.js is only the 3D page's (and later the editor's 3D preview): never in the app's first load.
            { name: 'three', test: /node_modules[\\/](three|@react-three)[\\/]/ },
            // Konva is the editor's and the storefront preview's, which loads it without the app's libraries.
            { name: 'konva', test: /node_modules[\\/](konva|react-konva|react-reconciler)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: backend, changeOrigin: false }])),
  },
  preview: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: backend, changeOrigin: false }])),
  },
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // user-event interactions under jsdom take seconds on a loaded 2-core CI machine.
    testTimeout: 20_000,
    css: false,
  },
}));
