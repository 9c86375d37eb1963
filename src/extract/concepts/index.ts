/**
 * The concept tables of every language merged into one keyword matcher (as lexicon.ts merges the
 * rules' tables): `findConcepts(fold)` gives the concept hits of a segment's folded text. Adding a
 * language is adding its file here.
 */
import { type KeywordHit, KeywordMatcher, type KeywordSpec } from '../matcher.ts';
import { foldKeyword } from '../normalize.ts';
import { en } from './en.ts';
import { CONCEPTS, type Concept, type ConceptTable } from './table.ts';

export type { Concept } from './table.ts';
export { CONCEPTS } from './table.ts';

export const CONCEPT_TABLES: readonly ConceptTable[] = [en];

function buildSpecs(tables: readonly ConceptTable[]): KeywordSpec<Concept>[] {
  const merged = new Map<string, KeywordSpec<Concept>>();
  for (const table of tables) {
    for (const concept of CONCEPTS) {
      for (const raw of table[concept]) {
        const openLeft = raw.startsWith('*');
        const openRight = raw.endsWith('*') && raw.length > 1;
        const text = foldKeyword(raw.slice(openLeft ? 1 : 0, openRight ? -1 : undefined));
        if (text.length === 0) continue;
        const key = `${concept}\u0000${text}`;
        const seen = merged.get(key);
        merged.set(key, {
          text,
          cls: concept,
          openLeft: openLeft || (seen?.openLeft ?? false),
          openRight: openRight || (seen?.openRight ?? false),
        });
      }
    }
  }
  return [...merged.values()];
}

const matcher = new KeywordMatcher(buildSpecs(CONCEPT_TABLES));

/** Concept hits in folded text, sorted by start. */
export function findConcepts(fold: string): KeywordHit<Concept>[] {
  return matcher.find(fold);
}
