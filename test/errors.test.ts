import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { errorCodes, oauthErrorCodes, securityEventErrorCodes } from '../src/errors/index.ts';

const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');

/** The rows of the table under a `## heading` (the problem+json table is the one before any). */
function section(heading: string | null): string[] {
  const parts = doc.split(/^## /m);
  const text = heading === null ? parts[0]! : parts.find((part) => part.startsWith(heading));
  expect(text, `docs/errors.md has no section ${heading}`).toBeDefined();
  return text!.split('\n').filter((line) => /^\| `[a-z_]+` \|/.test(line));
}

const registries = [
  ['problem+json', null, errorCodes],
  ['OAuth', 'OAuth endpoints', oauthErrorCodes],
  ['security events', 'Security events', securityEventErrorCodes],
] as const;

describe.each(registries)('the %s registry and its table', (_name, heading, registry) => {
  const rows = section(heading);

  test.each(Object.entries(registry))('%s is documented with its status', (code, { status }) => {
    const row = rows.find((line) => line.startsWith(`| \`${code}\` |`));
    expect(row, `docs/errors.md has no row for ${code}`).toBeDefined();
    expect(row).toContain(`| ${status} |`);
  });

  test('every documented code exists in the registry', () => {
    const documented = rows.map((line) => /^\| `([a-z_]+)` \|/.exec(line)![1]);
    expect(documented.sort()).toEqual(Object.keys(registry).sort());
  });
});
