/**
 * Code-shaped tokens in a segment, each with evidence about its SHAPE only (context is scored in
 * code-context.ts).
 *
 * Shapes accepted (the code box's own rules): 4–8 digits, possibly split into groups of 2+ digits by
 * single spaces, hyphens or dots (`83 02 17`, `552-804`, `12.34.56`), with an optional 1–4 letter
 * prefix before a hyphen that nobody types (`G-482913`), or shown one digit at a time
 * (`4 8 2 9 1 3`, one per table cell); or 6–8 ASCII letters and digits mixed (`K8R2TQ`, also
 * hyphen-split `KXB-92R`, see alnum.ts). Values keep leading zeros and letter case; separators
 * and prefixes are dropped.
 * Never candidates: numbers with `:` `/` `,` `'` inside (times, dates, amounts), numbers glued to a
 * path or URL parameter, anything inside a URL or email address, digit runs longer than 8.
 * Shape penalties mark what a number looks like when it is not a code (dates, years, masked
 * card endings, phone numbers with area code, US ZIP codes, promo-style words like `SAVE15`).
 */
import { scanAlnum, scanCompound, scanSpacedAlnum } from './alnum.ts';
import {
  isAlnum,
  isDigit,
  isLetter,
  neighbourAfter,
  neighbourBefore,
  PATH_NEIGHBOURS,
} from './chars.ts';
import type { CodeCandidate, Evidence } from './evidence.ts';
import type { Segment } from './segment.ts';

interface Chunk {
  readonly start: number;
  readonly end: number;
  readonly groups: readonly string[];
  readonly seps: string;
}

const CHUNK_SEPS = "-.,:/'";
const MASK_CHARS = '*•●·…';
/**
 * A sign-in message holds a handful of numbers; past this many code-shaped tokens the rest of a
 * (hostile or bulk) text is not examined, which bounds the work per message.
 */
const MAX_CANDIDATES = 200;
const MAX_GROUPS = 12;
const LENGTH_PRIOR: Record<number, number> = { 4: 0.3, 5: 0.35, 6: 0.6, 7: 0.4, 8: 0.45 };

/** Spans of email addresses (codes never hide inside them). */
function emailSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let s = at;
    while (s > 0 && /[A-Za-z0-9._%+-]/.test(text[s - 1]!)) s -= 1;
    let e = at + 1;
    while (e < text.length && /[A-Za-z0-9.-]/.test(text[e]!)) e += 1;
    if (s < at && text.slice(at + 1, e).includes('.')) spans.push([s, e]);
  }
  return spans;
}

export function scanCandidates(seg: Segment): CodeCandidate[] {
  const text = seg.text;
  const n = text.length;
  const masked: Array<[number, number]> = seg.urls.map((u) => [u.start, u.end]);
  if (text.includes('@')) masked.push(...emailSpans(text));
  masked.sort((a, b) => a[0] - b[0]);
  const out: CodeCandidate[] = [];
  let m = 0;
  let i = 0;
  while (i < n && out.length < MAX_CANDIDATES) {
    while (m < masked.length && masked[m]![1] <= i) m += 1;
    if (m < masked.length && masked[m]![0] <= i) {
      i = masked[m]![1];
      continue;
    }
    const c = text.charCodeAt(i);
    if (!isAlnum(c)) {
      i += 1;
      continue;
    }
    const compoundEnd = scanCompound(text, i, out);
    if (compoundEnd > i) {
      i = compoundEnd;
      continue;
    }
    const spacedEnd = scanSpacedAlnum(text, i, out);
    if (spacedEnd > i) {
      i = spacedEnd;
      continue;
    }
    let j = i;
    let letters = 0;
    while (j < n && isAlnum(text.charCodeAt(j))) {
      if (isLetter(text.charCodeAt(j))) letters += 1;
      j += 1;
    }
    if (letters === 0) {
      i = scanNumber(text, i, out);
    } else {
      if (letters < j - i) scanAlnum(text, i, j, out);
      i = j;
    }
  }
  return out;
}

/** A chunk: digit groups joined by single non-space separators. Null when glued to letters. */
function readChunk(text: string, start: number): Chunk | null {
  const groups: string[] = [];
  let seps = '';
  let p = start;
  while (p < text.length && isDigit(text.charCodeAt(p))) p += 1;
  if (p < text.length && isLetter(text.charCodeAt(p))) return null;
  groups.push(text.slice(start, p));
  while (p + 1 < text.length && CHUNK_SEPS.includes(text[p]!) && isDigit(text.charCodeAt(p + 1))) {
    let q = p + 1;
    while (q < text.length && isDigit(text.charCodeAt(q))) q += 1;
    if (q < text.length && isLetter(text.charCodeAt(q))) break;
    // A thousands separator follows 1–3 digits; after a longer run a comma is punctuation
    // (`验证码：938271，5分钟` normalises to `938271,5`).
    if ((text[p] === ',' || text[p] === "'") && groups[groups.length - 1]!.length > 3) break;
    if (!seps.includes(text[p]!)) seps += text[p]!;
    groups.push(text.slice(p + 1, q));
    p = q;
  }
  return { start, end: p, groups, seps };
}

function scanNumber(text: string, start: number, out: CodeCandidate[]): number {
  const first = readChunk(text, start);
  if (first === null) return start + 1;
  if (first.seps === '' && first.groups[0]!.length === 1) {
    const end = scanSpacedDigits(text, first, out);
    if (end > first.end) return end;
  }
  const plain = (ch: Chunk) =>
    ch.seps === '' && ch.groups[0]!.length >= 2 && ch.groups[0]!.length <= 4;
  if (!plain(first)) {
    emitChunk(text, first, out);
    return first.end;
  }
  // Space-separated run of short groups: `83 02 17`, `0913 5570`, `9205 5000 1234 …`.
  const run: Chunk[] = [first];
  let p = first.end;
  while (text[p] === ' ' && isDigit(text.charCodeAt(p + 1))) {
    const next = readChunk(text, p + 1);
    if (next === null || !plain(next)) break;
    if (run.length < MAX_GROUPS) run.push(next);
    p = next.end;
  }
  if (run.length === 1) {
    const cells = scanCellGroups(text, first, out);
    if (cells > first.end) return cells;
    emitChunk(text, first, out);
    return first.end;
  }
  const digits = run.map((ch) => ch.groups[0]!).join('');
  const lengths = run.map((ch) => ch.groups[0]!.length);
  if (digits.length <= 8) {
    emit(text, digits, run[0]!.start, p, lengths, ' ', false, out);
  }
  // Groups of a long number (card, tracking) are only worth a look in short runs.
  for (const ch of run.length <= 4 ? run : []) {
    if (ch.groups[0]!.length >= 4) {
      emit(text, ch.groups[0]!, ch.start, ch.end, [4], '', true, out, digits.length > 8);
    }
  }
  return p;
}

function emitChunk(text: string, ch: Chunk, out: CodeCandidate[]): void {
  if (/[:/,']/.test(ch.seps) || ch.seps.length > 1) return;
  const lengths = ch.groups.map((g) => g.length);
  const digits = ch.groups.join('');
  if (digits.length < 4 || digits.length > 8) return;
  if (lengths.length > 1 && lengths.some((l) => l < 2)) return;
  const extra: Evidence[] = [];
  if (ch.seps === '.' && lengths.length === 2) {
    // `52.813` is 52,813 written the continental way, or a code split by a dot ("52.813 é o seu
    // código"): only a label touching it can say which. `12.5`-like decimals never qualify.
    const thousands = lengths[1] === 3 && lengths[0]! <= 3;
    if (!(lengths[0] === lengths[1] && lengths[0]! >= 3) && !thousands) return;
    extra.push({ weight: -1.2, reason: 'looks like a number with a thousands separator' });
    // One number either way: the uneven split is the thousands grouping, not a doubt of its own.
    if (thousands) {
      emit(text, digits, ch.start, ch.end, [digits.length], '', false, out, false, extra);
      return;
    }
  }
  const date = dateShape(ch.groups, ch.seps);
  if (date !== null) extra.push(date);
  emit(text, digits, ch.start, ch.end, lengths, ch.seps, false, out, false, extra);
}

function dateShape(groups: readonly string[], sep: string): Evidence | null {
  if (sep !== '.' && sep !== '-') return null;
  const nums = groups.map(Number);
  const lens = groups.map((g) => g.length).join(',');
  const dm = (d: number, mo: number) => d >= 1 && d <= 31 && mo >= 1 && mo <= 12;
  const year = (y: number) => y >= 1900 && y <= 2099;
  let date = false;
  if (lens === '2,2,4' || lens === '2,2,2') date = dm(nums[0]!, nums[1]!) || dm(nums[1]!, nums[0]!);
  if (lens === '4,2' || lens === '4,2,2') date = year(nums[0]!) && nums[1]! >= 1 && nums[1]! <= 12;
  // "19-07-44" splits a code as often as it writes a date (two-digit years are rare with hyphens),
  // so only a label decides it; dotted and four-digit-year forms stay dates.
  if (date && sep === '-' && lens === '2,2,2') {
    return { weight: -1, reason: 'shaped like a date with a two-digit year' };
  }
  if (date) return { weight: -3, reason: 'shaped like a date' };
  if (sep === '-' && lens === '2,2' && nums[0]! <= 31 && nums[1]! <= 31) {
    return { weight: -0.8, reason: 'shaped like a range or day-month' };
  }
  return null;
}

function emit(
  text: string,
  value: string,
  digitStart: number,
  end: number,
  lengths: readonly number[],
  seps: string,
  part: boolean,
  out: CodeCandidate[],
  partOfLong = false,
  extra: readonly Evidence[] = [],
): void {
  const evidence: Evidence[] = [
    { weight: LENGTH_PRIOR[value.length] ?? 0, reason: `${value.length}-digit number` },
  ];
  let start = digitStart;
  // Letter prefix before a hyphen: `G-482913` (brand, dropped) or `GR-442190` (reference style).
  if (text[start - 1] === '-') {
    let k = start - 1;
    while (k > 0 && isLetter(text.charCodeAt(k - 1)) && start - 1 - k < 5) k -= 1;
    const letters = start - 1 - k;
    if (letters >= 1 && letters <= 4 && !isAlnum(text.charCodeAt(k - 1))) {
      start = k;
      evidence.push(
        letters <= 1
          ? { weight: 0, reason: 'brand prefix dropped' }
          : { weight: -0.4, reason: 'letter prefix like a reference number' },
      );
    } else if (isAlnum(text.charCodeAt(start - 2))) {
      evidence.push({ weight: -0.6, reason: 'joined to a word by a hyphen' });
    }
  }
  const before = neighbourBefore(text, start);
  const after = neighbourAfter(text, end);
  if (
    PATH_NEIGHBOURS.includes(text[start - 1] ?? ' ') ||
    PATH_NEIGHBOURS.includes(text[end] ?? ' ')
  ) {
    return; // part of a path, parameter or address
  }
  if (text[end] === '.' && isAlnum(text.charCodeAt(end + 1))) return; // file name or domain
  if (before === '#' || before === '№') {
    evidence.push({ weight: -2.5, reason: 'number sign before it (order or reference number)' });
  } else if (before === '+') {
    evidence.push({ weight: -3, reason: 'international phone number' });
  } else if (isMasked(text, start)) {
    evidence.push({ weight: -3, reason: 'masked card or account ending' });
  } else if (before === ')' && /\(\d{2,4}\) ?$/.test(text.slice(Math.max(0, start - 8), start))) {
    evidence.push({ weight: -3, reason: 'phone number with area code' });
  }
  if (after === '%') evidence.push({ weight: -3, reason: 'percentage' });
  if (lengths.length > 1) {
    const even = lengths.every((l) => l === lengths[0]);
    evidence.push(
      even
        ? { weight: 0.15, reason: `evenly separated groups ('${seps === ' ' ? 'space' : seps}')` }
        : { weight: -0.25, reason: 'unevenly separated groups' },
    );
  }
  if (part) {
    evidence.push(
      partOfLong
        ? { weight: -2, reason: 'one group of a long number (card, phone or tracking)' }
        : { weight: -0.5, reason: 'one group of a longer number' },
    );
  }
  if (lengths.length === 1 && value.length === 4) {
    const y = Number(value);
    if (y >= 1950 && y <= 2039) evidence.push({ weight: -0.4, reason: 'looks like a year' });
  }
  if (
    value.length === 5 &&
    lengths.length === 1 &&
    /(^|[\s,])[A-Z]{2} $/.test(text.slice(Math.max(0, start - 4), start))
  ) {
    evidence.push({ weight: -2.5, reason: 'US state and ZIP code' });
  }
  evidence.push(...extra);
  out.push({ value, start, end, kind: 'digits', part, evidence });
}

function isMasked(text: string, start: number): boolean {
  let k = start - 1;
  if (text[k] === ' ') k -= 1;
  const ch = text[k] ?? '';
  if (MASK_CHARS.includes(ch) && ch !== '') return true;
  const prev = text[k - 1] ?? '';
  if (ch === '.' && prev === '.') return true;
  if ((ch === 'x' || ch === 'X') && (prev === 'x' || prev === 'X' || MASK_CHARS.includes(prev))) {
    return prev !== '';
  }
  return false;
}

/**
 * Groups of 2–3 digits shown in cells or lines of their own (`60 | 33 | 81` in a table reads as
 * "60\n\n33\n\n81"): as with one digit per cell, the layout splits one code. Groups must be of one
 * length (a code split evenly), 2–4 of them, nothing but line breaks and spaces between; the
 * value, like any candidate, still needs a label or a request to type it to be chosen.
 */
function scanCellGroups(text: string, first: Chunk, out: CodeCandidate[]): number {
  const size = first.groups[0]!.length;
  if (size > 3 || isAlnum(text.charCodeAt(first.start - 1))) return first.end;
  let digits = first.groups[0]!;
  let p = first.end;
  let end = first.end;
  let broken = false;
  for (;;) {
    let q = p;
    while (q < text.length && q - p < 4 && (text[q] === ' ' || text[q] === '\n')) q += 1;
    if (q === p || !isDigit(text.charCodeAt(q))) break;
    const next = readChunk(text, q);
    if (next === null || next.seps !== '' || next.groups[0]!.length !== size) break;
    if (isAlnum(text.charCodeAt(next.end))) break;
    if (text.slice(p, q).includes('\n')) broken = true;
    digits += next.groups[0]!;
    p = next.end;
    end = p;
    if (digits.length > 8) return first.end;
  }
  if (!broken || digits.length < 4) return first.end;
  emit(text, digits, first.start, end, [digits.length], '', false, out, false, [
    { weight: -0.6, reason: 'groups shown in cells of their own' },
  ]);
  return end;
}

/** Digits shown one by one (`4 8 2 9 1 3`, or one per table cell in HTML). */
function scanSpacedDigits(text: string, first: Chunk, out: CodeCandidate[]): number {
  let digits = text[first.start]!;
  let p = first.end;
  let end = first.end;
  let dashed = false;
  // A run longer than a code is consumed whole, so its digits are not re-examined one by one.
  for (;;) {
    let q = p;
    while (q < text.length && q - p < 2 && (text[q] === ' ' || text[q] === '\n')) q += 1;
    // One spaced dash between halves: `4 9 2 - 0 8 3`.
    if (
      !dashed &&
      q === p + 1 &&
      text[p] === ' ' &&
      '-–'.includes(text[q]!) &&
      text[q + 1] === ' '
    ) {
      q += 2;
      dashed = true;
    }
    if (q === p || !isDigit(text.charCodeAt(q)) || isAlnum(text.charCodeAt(q + 1))) break;
    if (CHUNK_SEPS.includes(text[q + 1] ?? ' ') && isDigit(text.charCodeAt(q + 2))) break;
    digits += text[q]!;
    p = q + 1;
    end = p;
  }
  if (digits.length > 8) return end;
  if (digits.length < 4 || isAlnum(text.charCodeAt(first.start - 1))) return first.end;
  emit(text, digits, first.start, end, [digits.length], '', false, out, false, [
    { weight: -0.2, reason: 'digits shown one by one' },
  ]);
  return end;
}
