/**
 * The keyword automaton (src/extract/matcher.ts) against a reference that needs no automaton: at
 * each end position, every keyword the text ends with there, longest first and, for one text held
 * by several specs, in spec order (the order Aho–Corasick's output lists give). Both feed the same
 * boundary rules and longest-wins pass, so any difference is the automaton's: a transition, a
 * failure link or an output list packed wrong. Checked on the two real tables (language keywords
 * and concepts) over a fifth of the corpus's messages, and on generated texts made of keyword pieces, where
 * failure chains run deep.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { loadSplit, TRAINING_SPLITS } from '../../bench/lib/corpus.ts';
import { CONCEPT_SPECS } from '../../src/extract/concepts/index.ts';
import { LEXICON_SPECS } from '../../src/extract/lexicon.ts';
import {
  collectHit,
  dropContained,
  type KeywordHit,
  KeywordMatcher,
  type KeywordSpec,
} from '../../src/extract/matcher.ts';
import { foldText, normalizeText } from '../../src/extract/normalize.ts';

function reference<C extends string>(specs: readonly KeywordSpec<C>[]) {
  const kept = specs.filter((s) => s.text.length > 0);
  const byText = new Map<string, KeywordSpec<C>[]>();
  for (const spec of kept) byText.set(spec.text, [...(byText.get(spec.text) ?? []), spec]);
  // For each last character, the lengths of the keywords ending in it, longest first.
  const lengthsByLast = new Map<number, number[]>();
  for (const spec of kept) {
    const last = spec.text.charCodeAt(spec.text.length - 1);
    const lengths = lengthsByLast.get(last) ?? [];
    if (!lengths.includes(spec.text.length)) lengths.push(spec.text.length);
    lengthsByLast.set(
      last,
      lengths.sort((a, b) => b - a),
    );
  }
  return (text: string): KeywordHit<C>[] => {
    const hits: KeywordHit<C>[] = [];
    for (let end = 1; end <= text.length; end += 1) {
      for (const length of lengthsByLast.get(text.charCodeAt(end - 1)) ?? []) {
        if (length > end) continue;
        for (const spec of byText.get(text.slice(end - length, end)) ?? []) {
          collectHit(hits, text, spec, end);
        }
      }
    }
    return dropContained(hits);
  };
}

const tables = [
  { name: 'language keywords', specs: LEXICON_SPECS },
  { name: 'concepts', specs: CONCEPT_SPECS },
] as const;

// Every fifth message of the training splits (about 6,000 texts, 2.7 million characters): the
// reference takes a second per 500,000 characters, the automaton a hundredth of that.
const corpusTexts = TRAINING_SPLITS.flatMap((split) => loadSplit(split))
  .filter((_, i) => i % 5 === 0)
  .flatMap((r) => [r.subject, r.text, r.html].filter((t) => t !== undefined))
  .map((raw) => foldText(normalizeText(raw)));

describe.each(tables)('the $name automaton', ({ specs }) => {
  const matcher = new KeywordMatcher<string>(specs);
  const expected = reference<string>(specs);

  test('holds thousands of keywords', () => {
    expect(specs.length).toBeGreaterThan(1000);
  });

  test('finds what the reference finds in corpus messages', () => {
    expect(corpusTexts.length).toBeGreaterThan(1000);
    let hits = 0;
    for (const text of corpusTexts) {
      const found = matcher.find(text);
      expect(found).toEqual(expected(text));
      hits += found.length;
    }
    // The comparison is not vacuous: the corpus is full of keywords.
    expect(hits).toBeGreaterThan(corpusTexts.length);
  });

  test('finds what the reference finds in texts made of keyword pieces', () => {
    const words = specs.map((s) => s.text);
    const piece = fc.oneof(
      fc.constantFrom(...words),
      // A keyword cut short or run on: the automaton must fall back through its failure links.
      fc
        .tuple(fc.constantFrom(...words), fc.nat(), fc.constantFrom('', 'x', 'é', '码'))
        .map(([w, cut, tail]) => w.slice(0, 1 + (cut % w.length)) + tail),
      fc.constantFrom(' ', '', '-', '.', ': ', '\n', 'a', '1'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join('');
        expect(matcher.find(text)).toEqual(expected(text));
      }),
      { numRuns: 2000 },
    );
  });
});

test('a matcher of overlapping keywords answers as the reference does', () => {
  const specs: KeywordSpec<'a' | 'b'>[] = [
    { text: 'he', cls: 'a', openLeft: false, openRight: false },
    { text: 'she', cls: 'a', openLeft: false, openRight: false },
    { text: 'his', cls: 'b', openLeft: false, openRight: true },
    { text: 'hers', cls: 'b', openLeft: true, openRight: false },
    { text: 'he', cls: 'b', openLeft: true, openRight: true },
    { text: '', cls: 'a', openLeft: false, openRight: false },
  ];
  const matcher = new KeywordMatcher(specs);
  const expected = reference(specs);
  for (const text of ['ushers', 'she', 'his hers', 'hishe', 'xhex', 'h', '', 'she-he his']) {
    expect(matcher.find(text)).toEqual(expected(text));
  }
  expect(matcher.find('she')).toEqual([{ start: 0, end: 3, cls: 'a', text: 'she' }]);
});
