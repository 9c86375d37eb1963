/**
 * The house's layering (docs/architecture.md), enforced: dependency-cruiser runs the rules in
 * .dependency-cruiser.cjs over src/, and over a small hostile tree to prove each rule bites.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const depcruise = path.join(root, 'node_modules/.bin/depcruise');
const config = path.join(root, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** Cruises `src` under `cwd` with the house's rules; the violations found. */
async function cruise(cwd: string): Promise<Violation[]> {
  // depcruise exits non-zero when a rule is broken; the JSON report is on stdout either way.
  const stdout = await promisify(execFile)(
    depcruise,
    ['src', '--config', config, '--output-type', 'json'],
    { cwd, maxBuffer: 64 * 1024 * 1024 },
  ).then(
    (result) => result.stdout,
    (error: { stdout?: string }) => {
      if (!error.stdout) throw error;
      return error.stdout;
    },
  );
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const describeViolation = (v: Violation) =>
  `${v.rule.name}: ${v.from} → ${v.cycle ? v.cycle.map((c) => c.name).join(' → ') : v.to}`;

describe('the layering of src/', () => {
  it('has no import cycles, no domain module importing a face and an extractor that is a leaf', async () => {
    expect((await cruise(root)).map(describeViolation)).toEqual([]);
  });
});

describe('the layering rules', () => {
  it('refuse a cycle, a domain import of a face and an extractor import of the service', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'latchkey-layering-'));
    try {
      const files: Record<string, string> = {
        'src/domain/sessions/open.ts':
          "import { page } from '../../console/page.ts';\nexport const open = () => page;\n",
        'src/console/page.ts': "export const page = 'page';\n",
        'src/extract/index.ts':
          "import { open } from '../domain/sessions/open.ts';\nexport const extract = open;\n",
        'src/domain/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
        'src/domain/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
        'tsconfig.json': JSON.stringify({
          compilerOptions: { allowImportingTsExtensions: true, module: 'nodenext', noEmit: true },
        }),
      };
      for (const [name, text] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
        await writeFile(path.join(dir, name), text);
      }
      const found = (await cruise(dir)).map(describeViolation);
      expect(found).toEqual(
        expect.arrayContaining([
          'domain-imports-no-face: src/domain/sessions/open.ts → src/console/page.ts',
          'extractor-is-a-leaf: src/extract/index.ts → src/domain/sessions/open.ts',
          expect.stringMatching(/^no-cycles: src\/domain\/[ab]\.ts → /),
        ]),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
