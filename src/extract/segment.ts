/**
 * A segment is one readable piece of a message (the SMS body, an email subject, text part or the
 * visible text of the HTML part), prepared once for every later step:
 * normalised text, its folded copy, keyword hits and the URLs written in it.
 * Invariants: `fold.length === text.length`; hits inside URLs are dropped (a `login` inside a link
 * must not vouch for a nearby number); `hits` and `urls` are sorted by start.
 */
import { type Concept, findConcepts } from './concepts/index.ts';
import { findKeywords, type Hit } from './lexicon.ts';
import type { KeywordHit } from './matcher.ts';
import { foldText } from './normalize.ts';
import { findTextUrls, type TextUrl } from './text-links.ts';

export type SegmentSource = 'sms' | 'subject' | 'text' | 'html';

export interface Segment {
  readonly source: SegmentSource;
  readonly text: string;
  readonly fold: string;
  readonly hits: readonly Hit[];
  readonly urls: readonly TextUrl[];
  /** What numbers and links here are for (concepts/): read by the learned scorer, not the rules. */
  readonly concepts: readonly KeywordHit<Concept>[];
}

/** `text` must already be normalised (normalizeText). */
export function makeSegment(source: SegmentSource, text: string): Segment {
  const fold = foldText(text);
  const urls = findTextUrls(text, fold);
  let hits = findKeywords(fold);
  let concepts = findConcepts(fold);
  if (urls.length > 0) {
    hits = hits.filter((h) => !insideAny(h.start, h.end, urls));
    concepts = concepts.filter((h) => !insideAny(h.start, h.end, urls));
  }
  return { source, text, fold, hits, urls, concepts };
}

function insideAny(start: number, end: number, spans: readonly TextUrl[]): boolean {
  for (const s of spans) {
    if (start < s.end && end > s.start) return true;
  }
  return false;
}

/** Index of the first hit whose start is >= pos (hits sorted by start). */
export function firstHitAtOrAfter(hits: readonly { start: number }[], pos: number): number {
  let lo = 0;
  let hi = hits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (hits[mid]!.start < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Hits overlapping [from, to). Hits are short, so starting a little early is enough. */
export function hitsBetween<H extends { start: number; end: number } = Hit>(
  hits: readonly H[],
  from: number,
  to: number,
): H[] {
  const result: H[] = [];
  for (let i = firstHitAtOrAfter(hits, from - 64); i < hits.length; i += 1) {
    const h = hits[i]!;
    if (h.start >= to) break;
    if (h.end > from) result.push(h);
  }
  return result;
}
