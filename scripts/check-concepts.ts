/**
 * Checks concept tables (src/extract/concepts/*.ts): `node scripts/check-concepts.ts <file>…`.
 * Every concept is listed, every entry folds to something, no entry is repeated within a concept,
 * and the `*` markers stand only at the ends. Prints the entry counts per concept.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONCEPTS, type ConceptTable } from '../src/extract/concepts/table.ts';
import { foldKeyword } from '../src/extract/normalize.ts';

let failed = false;
for (const file of process.argv.slice(2)) {
  const module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, ConceptTable>;
  const tables = Object.values(module).filter(
    (v) => typeof v === 'object' && v !== null && 'lang' in v,
  );
  if (tables.length !== 1) {
    console.error(`${file}: exports ${tables.length} tables, expected exactly one`);
    failed = true;
    continue;
  }
  const table = tables[0]!;
  const counts: string[] = [];
  for (const concept of CONCEPTS) {
    const words = table[concept];
    if (!Array.isArray(words)) {
      console.error(`${file}: ${concept} is missing`);
      failed = true;
      continue;
    }
    const seen = new Set<string>();
    for (const raw of words) {
      const body = raw.replace(/^\*|\*$/g, '');
      if (typeof raw !== 'string' || body.includes('*') || foldKeyword(body).trim() === '') {
        console.error(`${file}: ${concept}: bad entry ${JSON.stringify(raw)}`);
        failed = true;
      }
      const key = foldKeyword(raw);
      if (seen.has(key)) {
        console.error(`${file}: ${concept}: ${JSON.stringify(raw)} repeated`);
        failed = true;
      }
      seen.add(key);
    }
    counts.push(`${concept} ${words.length}`);
  }
  console.log(`${file} (${table.lang}): ${counts.join(', ')}`);
}
process.exit(failed ? 1 : 0);
