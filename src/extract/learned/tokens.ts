/**
 * Tokens of folded text for the learned scorer: words in scripts written with spaces, single
 * characters and character pairs in scripts written without (Han, kana, Thai, Lao, Khmer,
 * Myanmar), one token for every number, and the punctuation that labels a value (`:`, `#`, `№`,
 * currency signs). Long words also give their first five letters, so an inflected form
 * (`kodunuz`, `Überweisungs…`) shares weight with the others.
 *
 * A token is its 32-bit FNV-1a hash (of its UTF-16 code units, as `hash32` of its text) and its
 * span; no string is made. Linear in the text, every message goes through it.
 */

/** Tokens as parallel arrays, reused between calls (`count` of them are valid). */
export class TokenList {
  count = 0;
  hash = new Uint32Array(64);
  start = new Int32Array(64);
  end = new Int32Array(64);

  push(hash: number, start: number, end: number) {
    if (this.count === this.hash.length) {
      const grow = <T extends Uint32Array | Int32Array>(a: T, make: (n: number) => T) => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.hash = grow(this.hash, (n) => new Uint32Array(n));
      this.start = grow(this.start, (n) => new Int32Array(n));
      this.end = grow(this.end, (n) => new Int32Array(n));
    }
    this.hash[this.count] = hash;
    this.start[this.count] = start;
    this.end[this.count] = end;
    this.count += 1;
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const fnv = (h: number, unit: number) => Math.imul(h ^ unit, FNV_PRIME);

/** 32-bit FNV-1a of a string (UTF-16 code units). */
export function hash32(text: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) h = fnv(h, text.charCodeAt(i));
  return h >>> 0;
}

export const NUMBER_TOKEN = hash32('<n>');
const ELLIPSIS = 0x2026;

/** Punctuation kept as tokens: it labels or closes the value next to it. */
const KEPT = new Set(
  [
    ':',
    '#',
    '№',
    '$',
    '€',
    '£',
    '¥',
    '₹',
    '₩',
    '₽',
    '%',
    '@',
    '*',
    '=',
    '(',
    ')',
    '/',
    '-',
    '+',
  ].map((c) => c.charCodeAt(0)),
);

function isUnspacedScript(cp: number): boolean {
  return (
    (cp >= 0x3040 && cp <= 0x30ff) || // kana
    (cp >= 0x3400 && cp <= 0x9fff) || // CJK
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x0e00 && cp <= 0x0eff) || // Thai, Lao
    (cp >= 0x1780 && cp <= 0x17ff) || // Khmer
    (cp >= 0x1000 && cp <= 0x109f) // Myanmar
  );
}

const LETTER = /[\p{L}\p{M}]/u;
/** Per BMP code unit: 0 not yet known, 1 letter or mark (of a spaced script), 2 other. */
const letterCache = new Uint8Array(0x10000);

function isWordChar(c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
  if (c >= 0xd800 && c <= 0xdfff) return false;
  let known = letterCache[c]!;
  if (known === 0) {
    known = LETTER.test(String.fromCharCode(c)) && !isUnspacedScript(c) ? 1 : 2;
    letterCache[c] = known;
  }
  return known === 1;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Appends the tokens of `fold[from, to)` to `out` (cleared first) and returns it. */
export function tokenize(fold: string, from: number, to: number, out = new TokenList()): TokenList {
  out.count = 0;
  let i = Math.max(0, from);
  const stop = Math.min(to, fold.length);
  while (i < stop) {
    const c = fold.charCodeAt(i);
    if (isDigit(c)) {
      let j = i + 1;
      while (j < stop) {
        const d = fold.charCodeAt(j);
        if (isDigit(d)) j += 1;
        else if (
          (d === 0x20 || d === 0x2d || d === 0x2e) &&
          j + 1 < stop &&
          isDigit(fold.charCodeAt(j + 1))
        )
          j += 1;
        else break;
      }
      out.push(NUMBER_TOKEN, i, j);
      i = j;
    } else if (isUnspacedScript(c)) {
      let prev = -1;
      while (i < stop && isUnspacedScript(fold.charCodeAt(i))) {
        const ch = fold.charCodeAt(i);
        out.push(fnv(FNV_OFFSET, ch) >>> 0, i, i + 1);
        if (prev >= 0) out.push(fnv(fnv(FNV_OFFSET, prev), ch) >>> 0, i - 1, i + 1);
        prev = ch;
        i += 1;
      }
    } else if (isWordChar(c)) {
      let h = FNV_OFFSET;
      let head = 0;
      let j = i;
      while (j < stop) {
        const d = fold.charCodeAt(j);
        const joined =
          (d === 0x27 || d === 0x2d) && j > i && j + 1 < stop && isWordChar(fold.charCodeAt(j + 1));
        if (!isWordChar(d) && !joined) break;
        h = fnv(h, d);
        if (j - i === 4) head = h;
        j += 1;
      }
      out.push(h >>> 0, i, j);
      if (j - i >= 7) out.push(fnv(head, ELLIPSIS) >>> 0, i, j);
      i = j;
    } else {
      if (KEPT.has(c)) out.push(fnv(FNV_OFFSET, c) >>> 0, i, i + 1);
      i += 1;
    }
  }
  return out;
}
