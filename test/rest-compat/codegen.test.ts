/**
 * The compat layer's typed documents are generated (issue 17 §1): graphql-codegen regenerates them
 * from the committed schema.graphql into a temporary folder, and the result must equal what is
 * committed in src/rest-compat/generated/. A schema change therefore shows up here (run
 * `npm run codegen`) and then in the typecheck, wherever an operation module no longer fits.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '@graphql-codegen/cli';
import { afterAll, expect, test } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const committed = join(root, 'src/rest-compat/generated');
const out = mkdtempSync(join(tmpdir(), 'latchkey-codegen-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function regenerate() {
  process.env.CODEGEN_OUT = `${out}/`;
  try {
    // The same configuration `npm run codegen` reads, pointed at the temporary folder.
    const { default: config } = await import(`${join(root, 'codegen.ts')}?fresh=${Date.now()}`);
    await generate({ ...config, cwd: root, silent: true }, true);
  } finally {
    delete process.env.CODEGEN_OUT;
  }
}

test('the generated documents equal a fresh graphql-codegen run over schema.graphql (npm run codegen)', async () => {
  await regenerate();
  const fresh = readdirSync(out).sort();
  expect(fresh).toEqual(readdirSync(committed).sort());
  expect(fresh.length).toBeGreaterThan(0);
  for (const file of fresh) {
    expect(readFileSync(join(committed, file), 'utf8'), file).toBe(
      readFileSync(join(out, file), 'utf8'),
    );
  }
});

test('every operation module is typed by a generated document (no operation outside codegen)', () => {
  const operations = readdirSync(join(root, 'src/rest-compat/operations')).filter(
    (file) => file !== 'fragments.ts',
  );
  const gql = readFileSync(join(committed, 'gql.ts'), 'utf8');
  for (const file of operations) {
    const source = readFileSync(join(root, 'src/rest-compat/operations', file), 'utf8');
    const name = /graphql\(`\s*(?:query|mutation) (\w+)/.exec(source)?.[1];
    expect(name, file).toBeDefined();
    expect(gql, file).toContain(`types.${name}Document`);
  }
});
