import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites boot real servers and databases; files run in parallel, tests inside a file in order.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/helpers/count-reporter.ts'],
  },
});
