/**
 * Issue 17 §2: the extractor is a leaf. It imports nothing of the service (only its own modules
 * and htmlparser2, and `node:fs` in the one module that reads the learned scorer's weights file
 * beside it), has no import cycle among its modules, and the domain does not import it: ingest
 * runs it and hands the result to `receiveMessage`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const EXTRACT = join(ROOT, 'src/extract');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports (static, type-only included). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((m) => m[1]!);
}

describe('the extractor as a leaf module', () => {
  const files = sourceFiles(EXTRACT);

  test('imports only its own modules and htmlparser2 (and node:fs to read its weights)', () => {
    const outside: string[] = [];
    for (const file of files) {
      for (const spec of importsOf(file)) {
        const inside = spec.startsWith('.')
          ? resolve(dirname(file), spec).startsWith(`${EXTRACT}/`)
          : spec === 'htmlparser2' ||
            (spec === 'node:fs' && relative(EXTRACT, file) === 'learned/model.ts');
        if (!inside) outside.push(`${relative(ROOT, file)} -> ${spec}`);
      }
    }
    expect(files.length).toBeGreaterThan(10);
    expect(outside).toEqual([]);
  });

  test('has no import cycle among its modules', () => {
    const graph = new Map(
      files.map((file) => [
        file,
        importsOf(file)
          .filter((spec) => spec.startsWith('.'))
          .map((spec) => resolve(dirname(file), spec)),
      ]),
    );
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push(
          [...path.slice(path.indexOf(file)), file].map((f) => relative(EXTRACT, f)).join(' -> '),
        );
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  test('the domain never imports the extractor', () => {
    const offenders = sourceFiles(join(ROOT, 'src/domain')).filter((file) =>
      importsOf(file).some((spec) => resolve(dirname(file), spec).startsWith(EXTRACT)),
    );
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
