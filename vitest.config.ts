import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// graphql 16 ships CJS (`main`) and ESM (`module`) builds. Node — and therefore every dependency
// vitest leaves to Node, such as Pothos — loads the CJS one; Vite would hand our own sources the
// ESM one, and graphql refuses types "from another module or realm". One copy for everyone.
const graphqlEntry = createRequire(import.meta.url).resolve('graphql');

// Tests that need a real PostgreSQL (and Redis) shared by several processes — which the embedded
// database cannot be — are named *.pg.test.ts and run when CI points LATCHKEY_TEST_DATABASE_URL
// at one; everything else runs on both databases.
const realServices = Boolean(process.env.LATCHKEY_TEST_DATABASE_URL);

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(realServices ? [] : ['test/**/*.pg.test.ts'])],
    // Suites boot real servers and databases; files run in parallel, tests inside a file in order.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/helpers/count-reporter.ts'],
  },
});
