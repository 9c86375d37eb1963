import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { errorCodes } from '../src/errors/index.ts';

const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');

test.each(Object.entries(errorCodes))(
  'error code %s is documented with its status',
  (code, { status }) => {
    const row = doc.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
    expect(row, `docs/errors.md has no row for ${code}`).toBeDefined();
    expect(row).toContain(`| ${status} |`);
  },
);

test('every documented code exists in the registry', () => {
  const documented = [...doc.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
  expect(documented.sort()).toEqual(Object.keys(errorCodes).sort());
});
