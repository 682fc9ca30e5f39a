import { defineConfig } from 'vitest/config';

// End-to-end tests drive the real stack (bff + built UI) in the system Chromium; see e2e/support.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    reporters: ['default'],
  },
});
