import { defineConfig } from 'vitest/config';

// End-to-end tests drive the real stack (bff + built UI) in the system Chromium; see e2e/support.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // scripts/test sets one retry: the machines are shared and noisy. Its summary names every test that
    // passed only on a retry, so a flaky test is seen, not hidden.
    retry: Number(process.env.PRESSROOM_E2E_RETRY ?? 0),
    reporters: ['default'],
  },
});
