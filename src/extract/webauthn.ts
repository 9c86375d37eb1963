/**
 * Does the message ask for a passkey or security key (WebAuthn) instead of a code?
 *
 * True when a passkey / security-key word stands in a sentence that also asks for an action
 * (use, insert, touch, sign in, verify, tap…) and is not a notice about one ("a passkey was added").
 */
import type { Hit } from './lexicon.ts';
import { hitsBetween, type Segment } from './segment.ts';

const SENTENCE_END = /[.!?。！？।؟\n]/;

function sentenceAround(text: string, start: number, end: number): [number, number] {
  let s = start;
  while (s > 0 && start - s < 200 && !SENTENCE_END.test(text[s - 1]!)) s -= 1;
  let e = end;
  while (e < text.length && e - end < 200 && !SENTENCE_END.test(text[e]!)) e += 1;
  return [s, e];
}

export function asksForWebAuthn(segments: readonly Segment[]): boolean {
  for (const seg of segments) {
    for (const hit of seg.hits) {
      if (hit.cls !== 'webauthn') continue;
      const [s, e] = sentenceAround(seg.text, hit.start, hit.end);
      const near: Hit[] = hitsBetween(seg.hits, s, e);
      const asks = near.some((h) => h.cls === 'enter' || h.cls === 'auth' || h.cls === 'click');
      const notice = near.some((h) => h.cls === 'alert');
      if (asks && !notice) return true;
    }
  }
  return false;
}
