/**
 * Multi-keyword matcher (Aho–Corasick) over folded text.
 *
 * Why: every message is checked against a few thousand keywords from ~30 language tables. One pass
 * over the text, whatever the number of keywords, keeps extraction linear in the message length and
 * far under the per-message budget. Invariants:
 * - input text and keywords are already folded (see normalize.ts), so matching is exact;
 * - word-boundary rules (see languages/table.ts) are checked per match, not baked into the trie;
 * - a match lying inside a longer match is dropped, so phrases override their parts;
 * - results are sorted by start offset.
 */

export interface KeywordSpec<C extends string> {
  /** Folded keyword, without `*` markers. */
  readonly text: string;
  readonly cls: C;
  /** The keyword may continue into more letters on the left / right. */
  readonly openLeft: boolean;
  readonly openRight: boolean;
}

export interface KeywordHit<C extends string> {
  readonly start: number;
  readonly end: number;
  readonly cls: C;
  /** The keyword as folded (a stem match covers more text than this). */
  readonly text: string;
}

/** Letters of scripts that separate words with spaces: a keyword must not run into them. */
export function isWordLetter(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) ||
    (c >= 0x370 && c <= 0x52f) ||
    (c >= 0x1e00 && c <= 0x1fff)
  );
}

export class KeywordMatcher<C extends string> {
  private readonly next: Map<number, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  /** Keyword indices ending at each node, including those reached through failure links. */
  private readonly out: number[][] = [[]];
  private readonly specs: KeywordSpec<C>[];
  /** Root transitions as a flat table: most characters of a text restart at the root. */
  private readonly rootNext = new Int32Array(0x10000);

  constructor(specs: readonly KeywordSpec<C>[]) {
    this.specs = specs.filter((s) => s.text.length > 0);
    this.specs.forEach((spec, index) => {
      let node = 0;
      for (let i = 0; i < spec.text.length; i += 1) {
        const c = spec.text.charCodeAt(i);
        let child = this.next[node]!.get(c);
        if (child === undefined) {
          child = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.out.push([]);
          this.next[node]!.set(c, child);
        }
        node = child;
      }
      this.out[node]!.push(index);
    });
    for (const [c, child] of this.next[0]!) this.rootNext[c] = child;
    // Breadth-first failure links.
    const queue: number[] = [];
    for (const child of this.next[0]!.values()) queue.push(child);
    for (let q = 0; q < queue.length; q += 1) {
      const node = queue[q]!;
      for (const [c, child] of this.next[node]!) {
        let f = this.fail[node]!;
        while (f !== 0 && !this.next[f]!.has(c)) f = this.fail[f]!;
        const target = this.next[f]!.get(c);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        const inherited = this.out[this.fail[child]!]!;
        if (inherited.length > 0) this.out[child] = this.out[child]!.concat(inherited);
        queue.push(child);
      }
    }
  }

  /** All keyword matches in folded `text` that respect word boundaries, longest-wins. */
  find(text: string): KeywordHit<C>[] {
    const hits: KeywordHit<C>[] = [];
    let node = 0;
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (node === 0) {
        node = this.rootNext[c]!;
        if (node === 0) continue;
      } else {
        let child = this.next[node]!.get(c);
        while (child === undefined && node !== 0) {
          node = this.fail[node]!;
          child = node === 0 ? this.rootNext[c] || undefined : this.next[node]!.get(c);
        }
        node = child ?? 0;
      }
      const outs = this.out[node]!;
      for (let k = 0; k < outs.length; k += 1) {
        const spec = this.specs[outs[k]!]!;
        const end = i + 1;
        const start = end - spec.text.length;
        if (!spec.openLeft && start > 0) {
          if (isWordLetter(spec.text.charCodeAt(0)) && isWordLetter(text.charCodeAt(start - 1))) {
            continue;
          }
        }
        if (!spec.openRight && end < text.length) {
          const last = spec.text.charCodeAt(spec.text.length - 1);
          if (isWordLetter(last) && isWordLetter(text.charCodeAt(end))) continue;
        }
        // A stem match (`verif*`) covers the whole word (`verify`), so distances are measured
        // from the word's real edges.
        let s = start;
        let e = end;
        if (spec.openLeft)
          while (s > 0 && start - s < 40 && isWordLetter(text.charCodeAt(s - 1))) s -= 1;
        if (spec.openRight)
          while (e < text.length && e - end < 40 && isWordLetter(text.charCodeAt(e))) e += 1;
        hits.push({ start: s, end: e, cls: spec.cls, text: spec.text });
      }
    }
    return dropContained(hits);
  }
}

/**
 * Sort by start and drop every hit lying inside another hit whose keyword is longer (a stem
 * match may cover a whole word, so keyword length, not span, decides: `gutscheincode` beats the
 * `*code` found inside it).
 */
function dropContained<C extends string>(hits: KeywordHit<C>[]): KeywordHit<C>[] {
  if (hits.length < 2) return hits;
  hits.sort((a, b) => a.start - b.start || b.end - a.end || b.text.length - a.text.length);
  const kept: KeywordHit<C>[] = [];
  let maxEnd = -1;
  let maxLen = 0;
  for (const hit of hits) {
    const len = hit.text.length;
    if (hit.end <= maxEnd && len < maxLen) continue;
    if (hit.end > maxEnd || len > maxLen) {
      maxEnd = Math.max(maxEnd, hit.end);
      maxLen = len;
    }
    kept.push(hit);
  }
  return kept;
}
