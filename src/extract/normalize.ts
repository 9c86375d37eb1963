/**
 * Text normalisation for the extractor.
 *
 * `normalizeText` turns a raw message into the working text every later step reads:
 * - every Unicode decimal digit (full-width, Arabic-Indic, Persian, Devanagari, Bengali, Thai, …)
 *   becomes its ASCII digit, because the code box only takes 0-9;
 * - full-width ASCII (`Ａ`, `：`, `（`) becomes ASCII, so codes and punctuation look alike everywhere
 *   (but a full-width comma before a number that is not a thousands group becomes `、`: see
 *   `fullwidthComma`);
 * - bidi controls, zero-width characters, soft hyphens and combining marks that ride on Latin or
 *   Arabic letters are dropped (they hide inside RTL texts and break keyword matches);
 * - every kind of space becomes a plain space and `\r\n` / `\r` become `\n`;
 * - curly quotes and Unicode hyphens become their ASCII forms (`don’t`, `123‑456`).
 * Letter case is preserved: alphanumeric codes are case-sensitive.
 *
 * `foldText` returns a lower-cased, diacritic-folded copy of normalised text with EXACTLY the same
 * length, so an index found in the folded text (keyword matches) is valid in the normalised text
 * (code values). Invariant: `foldText(t).length === t.length`.
 */

const DIGIT_ZERO = 0x30;

/** Cache of non-ASCII code point → ASCII digit value (or -1 when not a decimal digit). */
const digitCache = new Map<number, number>();
const ND = /^\p{Nd}$/u;

/**
 * Value of a Unicode decimal digit. Unicode encodes every decimal digit set as a contiguous run
 * 0..9, so the value is the distance to the start of the run. Runs that sit back to back (the
 * mathematical digits) are caught by NFKC first.
 */
function digitValue(cp: number): number {
  const cached = digitCache.get(cp);
  if (cached !== undefined) return cached;
  const ch = String.fromCodePoint(cp);
  let value = -1;
  if (ND.test(ch)) {
    const compat = ch.normalize('NFKC');
    if (compat.length === 1 && compat >= '0' && compat <= '9') {
      value = compat.charCodeAt(0) - DIGIT_ZERO;
    } else {
      let run = 0;
      while (run < 60 && ND.test(String.fromCodePoint(cp - run - 1))) run += 1;
      value = run % 10;
    }
  }
  digitCache.set(cp, value);
  return value;
}

function isDropped(cp: number): boolean {
  return (
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x2069) ||
    cp === 0xfeff ||
    cp === 0x00ad ||
    cp === 0x061c ||
    (cp >= 0x0300 && cp <= 0x036f) ||
    (cp >= 0x064b && cp <= 0x065f) ||
    cp === 0x0670
  );
}

function isSpace(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0b ||
    cp === 0x0c ||
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

function isHyphen(cp: number): boolean {
  return cp === 0x2010 || cp === 0x2011 || cp === 0x2012 || cp === 0x2212 || cp === 0xfe63;
}

/** Quick test: plain printable ASCII plus newline needs no work. */
const NEEDS_WORK = /[^\x20-\x7e\n]/;

const utf16 = new TextDecoder('utf-16le');

/** Replacement for one code point: a code unit, -1 to drop it, or -2 to keep it as is. */
function replacementOf(cp: number, next: number): number {
  if (cp === 0x0d) return next === 0x0a ? -1 : 0x0a;
  if (cp < 0xa0 && cp !== 0x09 && cp !== 0x0b && cp !== 0x0c) return -2;
  if (isDropped(cp)) return -1;
  if (isSpace(cp)) return 0x20;
  if (cp >= 0xff01 && cp <= 0xff5e) return cp - 0xfee0;
  if (isHyphen(cp)) return 0x2d;
  if (cp === 0x2018 || cp === 0x2019 || cp === 0x02bc) return 0x27;
  if (cp === 0x201c || cp === 0x201d) return 0x22;
  if (cp === 0x066b) return 0x2e;
  if (cp === 0x066c) return 0x2c;
  if (cp >= 0x0660) {
    const v = digitValue(cp);
    if (v >= 0) return DIGIT_ZERO + v;
  }
  return -2;
}

const FULLWIDTH_COMMA = 0xff0c;
const IDEOGRAPHIC_COMMA = 0x3001;
const isDigitUnit = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0xff10 && c <= 0xff19);

/**
 * A full-width comma is ASCII `,` where it groups thousands (`１２，３４５円`: exactly three digits
 * follow), and the ideographic comma `、` where it ends a clause (`验证码 693 018，5分钟内有效`): as
 * `,` it glued the code to the next clause's number (`018,5`, an amount), and no candidate was
 * seen (held-out sets 18 and training set 12).
 */
function fullwidthComma(raw: string, i: number): number {
  let digits = 0;
  while (i + 1 + digits < raw.length && isDigitUnit(raw.charCodeAt(i + 1 + digits))) digits += 1;
  const groupsThousands = digits === 3 && i > 0 && isDigitUnit(raw.charCodeAt(i - 1));
  return digits === 0 || groupsThousands ? 0x2c : IDEOGRAPHIC_COMMA;
}

/** Normalise a raw message text; see the module comment for what changes. */
export function normalizeText(raw: string): string {
  if (!NEEDS_WORK.test(raw)) return raw;
  const n = raw.length;
  // Output never grows: every replacement is one code unit or nothing.
  const out = new Uint16Array(n);
  let o = 0;
  let changed = false;
  for (let i = 0; i < n; i += 1) {
    const c = raw.charCodeAt(i);
    if ((c >= 0x20 && c <= 0x7e) || c === 0x0a) {
      out[o++] = c;
      continue;
    }
    const high = c >= 0xd800 && c <= 0xdbff && i + 1 < n;
    const low = high ? raw.charCodeAt(i + 1) : 0;
    const pair = high && low >= 0xdc00 && low <= 0xdfff;
    const cp = pair ? (c - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000 : c;
    const r =
      cp === FULLWIDTH_COMMA ? fullwidthComma(raw, i) : replacementOf(cp, raw.charCodeAt(i + 1));
    if (r === -2) {
      out[o++] = c;
      if (pair) out[o++] = low;
    } else {
      changed = true;
      if (r !== -1) out[o++] = r;
    }
    if (pair) i += 1;
  }
  if (!changed) return raw;
  // A lone surrogate decodes to U+FFFD: one unit for one unit.
  return utf16.decode(out.subarray(0, o));
}

/** Fold table for the first 0x2000 code units: lower case, diacritics stripped, same length. */
const FOLD = new Uint16Array(0x2000);
for (let c = 0; c < 0x2000; c += 1) {
  const s = String.fromCharCode(c);
  let lower = s.toLowerCase();
  if (lower.length !== 1) lower = s;
  const nfd = lower.normalize('NFD');
  let folded = lower.charCodeAt(0);
  if (nfd.length > 1 && /^\p{L}\p{M}+$/u.test(nfd)) folded = nfd.charCodeAt(0);
  FOLD[c] = folded;
}
// Letters NFD leaves alone but readers treat as their base letter.
for (const [from, to] of [
  ['ı', 'i'],
  ['İ', 'i'],
  ['ł', 'l'],
  ['Ł', 'l'],
  ['ø', 'o'],
  ['Ø', 'o'],
  ['đ', 'd'],
  ['Đ', 'd'],
  ['ħ', 'h'],
  // Final sigma: capitals fold to σ, so a keyword written with ς would never meet a message in capitals.
  ['ς', 'σ'],
] as const) {
  FOLD[from.charCodeAt(0)] = to.charCodeAt(0);
}

/** Anything but printable ASCII and common whitespace takes the table path (lint forbids control ranges). */
const NON_ASCII = /[^\t\n\r -~]/;

/** Lower-cased, diacritic-folded copy of `text` with the same length (see module comment). */
export function foldText(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x2000) {
      codes[i] = FOLD[c]!;
    } else if ((c >= 0x3000 && c < 0xa640) || c >= 0xa800) {
      // CJK, Hangul, kana and surrogates have no case: copy as-is (fast path for CJK text).
      codes[i] = c;
    } else {
      const lower = String.fromCharCode(c).toLowerCase();
      codes[i] = lower.length === 1 ? lower.charCodeAt(0) : c;
    }
  }
  // A lone surrogate decodes to U+FFFD: still one unit, so the length invariant holds.
  return utf16.decode(codes);
}

/** Fold a keyword the same way text is folded, after normalising it like text. */
export function foldKeyword(word: string): string {
  return foldText(normalizeText(word.normalize('NFC')));
}
