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
  private readonly specs: KeywordSpec<C>[];
  /** Root transitions as a flat table: most characters of a text restart at the root. */
  private readonly rootNext = new Int32Array(0x10000);
  /**
   * The automaton in flat typed arrays, not a Map and an array per state: the two tables' tries
   * have ~214,000 states, and held as objects they were ~690,000 of the service's 1.43 million
   * heap objects (58 of its 141 MB after a full collection), which every full garbage collection
   * marked again (bench/results/throughput.md, session 10). State 0 is the root. State `s`'s transitions are `edgeChar`/`edgeTarget` at
   * `edgeStart[s] .. edgeStart[s + 1]`, sorted by character.
   */
  private readonly edgeStart: Int32Array;
  private readonly edgeChar: Uint16Array;
  private readonly edgeTarget: Int32Array;
  private readonly fail: Int32Array;
  /**
   * Keyword indices ending at state `s`, including those reached through failure links:
   * `outList` at `outStart[s] .. outStart[s + 1]`.
   */
  private readonly outStart: Int32Array;
  private readonly outList: Int32Array;

  constructor(specs: readonly KeywordSpec<C>[]) {
    this.specs = specs.filter((s) => s.text.length > 0);
    const count = this.specs.length;
    // The trie, built from the keywords in code-unit order (a stable sort: one text held by
    // several specs keeps their order), so each state's children are made in character order and
    // each new keyword extends the path of the one before it. Typed arrays only: no object per
    // state is made, even while building.
    const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => {
      const x = this.specs[a]!.text;
      const y = this.specs[b]!.text;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    let capacity = 1;
    for (const spec of this.specs) capacity += spec.text.length;
    const parentOf = new Int32Array(capacity);
    const charOf = new Uint16Array(capacity);
    const ownCount = new Int32Array(capacity);
    const endOf = new Int32Array(count);
    const path = [0];
    let previous = '';
    let states = 1;
    for (const index of order) {
      const text = this.specs[index]!.text;
      let common = 0;
      const shorter = Math.min(text.length, previous.length);
      while (common < shorter && text.charCodeAt(common) === previous.charCodeAt(common)) {
        common += 1;
      }
      path.length = common + 1;
      for (let depth = common; depth < text.length; depth += 1) {
        parentOf[states] = path[depth]!;
        charOf[states] = text.charCodeAt(depth);
        path.push(states);
        states += 1;
      }
      const end = path[text.length]!;
      ownCount[end]! += 1;
      endOf[index] = end;
      previous = text;
    }
    // Transitions grouped by state; filling in state order keeps each group in character order.
    this.edgeStart = new Int32Array(states + 1);
    for (let node = 1; node < states; node += 1) this.edgeStart[parentOf[node]! + 1]! += 1;
    for (let node = 0; node < states; node += 1) {
      this.edgeStart[node + 1]! += this.edgeStart[node]!;
    }
    this.edgeChar = new Uint16Array(states - 1);
    this.edgeTarget = new Int32Array(states - 1);
    const filled = this.edgeStart.slice(0, states);
    for (let node = 1; node < states; node += 1) {
      const edge = filled[parentOf[node]!]!;
      filled[parentOf[node]!] = edge + 1;
      this.edgeChar[edge] = charOf[node]!;
      this.edgeTarget[edge] = node;
    }
    for (let edge = 0; edge < this.edgeStart[1]!; edge += 1) {
      this.rootNext[this.edgeChar[edge]!] = this.edgeTarget[edge]!;
    }
    // Breadth-first failure links: a state's failure state is shallower, so it is done first.
    this.fail = new Int32Array(states);
    const queue = new Int32Array(states - 1);
    let queued = 0;
    for (let edge = 0; edge < this.edgeStart[1]!; edge += 1)
      queue[queued++] = this.edgeTarget[edge]!;
    for (let q = 0; q < queued; q += 1) {
      const node = queue[q]!;
      for (let edge = this.edgeStart[node]!; edge < this.edgeStart[node + 1]!; edge += 1) {
        const c = this.edgeChar[edge]!;
        let f = this.fail[node]!;
        let target = this.step(f, c);
        while (target === -1 && f !== 0) {
          f = this.fail[f]!;
          target = this.step(f, c);
        }
        this.fail[this.edgeTarget[edge]!] = target === -1 ? 0 : target;
        queue[queued++] = this.edgeTarget[edge]!;
      }
    }
    // Each state's outputs: its own keywords in spec order, then its failure state's.
    const outCount = new Int32Array(states);
    for (let q = 0; q < queued; q += 1) {
      const node = queue[q]!;
      outCount[node] = ownCount[node]! + outCount[this.fail[node]!]!;
    }
    this.outStart = new Int32Array(states + 1);
    for (let node = 0; node < states; node += 1) {
      this.outStart[node + 1] = this.outStart[node]! + outCount[node]!;
    }
    this.outList = new Int32Array(this.outStart[states]!);
    const own = this.outStart.slice(0, states);
    for (let index = 0; index < count; index += 1) {
      const end = endOf[index]!;
      this.outList[own[end]!] = index;
      own[end] = own[end]! + 1;
    }
    for (let q = 0; q < queued; q += 1) {
      const node = queue[q]!;
      const f = this.fail[node]!;
      this.outList.copyWithin(
        this.outStart[node]! + ownCount[node]!,
        this.outStart[f]!,
        this.outStart[f]! + outCount[f]!,
      );
    }
  }

  /** The state `node` moves to on character `c`; -1 when it has no such transition. */
  private step(node: number, c: number): number {
    let lo = this.edgeStart[node]!;
    let hi = this.edgeStart[node + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.edgeChar[mid]!;
      if (at === c) return this.edgeTarget[mid]!;
      if (at < c) lo = mid + 1;
      else hi = mid;
    }
    return -1;
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
        let child = this.step(node, c);
        while (child === -1 && node !== 0) {
          node = this.fail[node]!;
          child = node === 0 ? this.rootNext[c]! : this.step(node, c);
        }
        node = child === -1 ? 0 : child;
      }
      for (let k = this.outStart[node]!, stop = this.outStart[node + 1]!; k < stop; k += 1) {
        collectHit(hits, text, this.specs[this.outList[k]!]!, i + 1);
      }
    }
    return dropContained(hits);
  }
}

/**
 * Adds the match of `spec` ending at `end` when it respects word boundaries; a stem match
 * (`verif*`) covers the whole word (`verify`), so distances are measured from the word's real
 * edges. Exported for the matcher's reference test, which enumerates matches without the automaton.
 */
export function collectHit<C extends string>(
  hits: KeywordHit<C>[],
  text: string,
  spec: KeywordSpec<C>,
  end: number,
): void {
  const start = end - spec.text.length;
  if (!spec.openLeft && start > 0) {
    if (isWordLetter(spec.text.charCodeAt(0)) && isWordLetter(text.charCodeAt(start - 1))) return;
  }
  if (!spec.openRight && end < text.length) {
    const last = spec.text.charCodeAt(spec.text.length - 1);
    if (isWordLetter(last) && isWordLetter(text.charCodeAt(end))) return;
  }
  let s = start;
  let e = end;
  if (spec.openLeft) while (s > 0 && start - s < 40 && isWordLetter(text.charCodeAt(s - 1))) s -= 1;
  if (spec.openRight)
    while (e < text.length && e - end < 40 && isWordLetter(text.charCodeAt(e))) e += 1;
  hits.push({ start: s, end: e, cls: spec.cls, text: spec.text });
}

/**
 * Sort by start and drop every hit lying inside another hit whose keyword is longer (a stem
 * match may cover a whole word, so keyword length, not span, decides: `gutscheincode` beats the
 * `*code` found inside it).
 */
export function dropContained<C extends string>(hits: KeywordHit<C>[]): KeywordHit<C>[] {
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
