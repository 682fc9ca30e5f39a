import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The bff serves /api, /admin and the health checks; in development Vite forwards them so the
// app runs against a real backend exactly as it does when the bff serves ui/dist.
const backend = process.env.PRESSROOM_BFF_URL ?? 'http://127.0.0.1:8080';
const proxied = ['/api', '/admin', '/healthz', '/readyz'];

export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // render.html is the fidelity render page (src/render): the editor's Konva drawing, for the e2e test.
      // mockup3d.html is the 3D mockup page the renderer's Chrome pool loads (src/mockup3d).
      input: { main: 'index.html', render: 'render.html', mockup3d: 'mockup3d.html' },
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/]/ },
            // three.js is only the 3D page's (and later the editor's 3D preview): never in the app's first load.
            { name: 'three', test: /node_modules[\\/](three|@react-three)[\\/]/ },
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
});
