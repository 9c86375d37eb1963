/**
 * Letters-and-digits codes (`K8R2TQ`, `4D7QX9R1`, `KXB-92R`): 6–8 ASCII characters mixing letters
 * and digits, case kept. Shape evidence separates generated codes (letters and digits
 * interleaved) from words with a number (`SAVE15`, promo style), numbers with a unit (`100GB`),
 * masked endings (`XX9921`) and hash-like mixed-case tokens.
 */
import { isAlnum, neighbourBefore, PATH_NEIGHBOURS } from './chars.ts';
import type { CodeCandidate, Evidence } from './evidence.ts';
import { isWordLetter } from './matcher.ts';

export function scanAlnum(text: string, start: number, end: number, out: CodeCandidate[]): void {
  const len = end - start;
  if (len < 6 || len > 8) return;
  const before = text[start - 1] ?? ' ';
  const after = text[end] ?? ' ';
  if (PATH_NEIGHBOURS.includes(before) || PATH_NEIGHBOURS.includes(after)) return;
  if (after === '.' && isAlnum(text.charCodeAt(end + 1))) return;
  if (before === '.' && isAlnum(text.charCodeAt(start - 2))) return;
  if (isWordLetter(before.charCodeAt(0)) || isWordLetter(after.charCodeAt(0))) return;
  const value = text.slice(start, end);
  const evidence: Evidence[] = [
    { weight: 0.5, reason: `${len}-character letters-and-digits token` },
  ];
  const shape = alnumShape(value);
  if (shape !== null) evidence.push(shape);
  if (
    (before === '-' && isAlnum(text.charCodeAt(start - 2))) ||
    (after === '-' && isAlnum(text.charCodeAt(end + 1)))
  ) {
    evidence.push({ weight: -0.6, reason: 'part of a hyphenated word' });
  }
  out.push({ value, start, end, kind: 'alnum', part: false, evidence });
}

function alnumShape(value: string): Evidence | null {
  if (/^[xX*]{2,}\d{2,}$/.test(value))
    return { weight: -3, reason: 'masked card or account ending' };
  const runs = value.match(/[A-Za-z]+|\d+/g) ?? [];
  const hasUpper = /[A-Z]/.test(value);
  const hasLower = /[a-z]/.test(value);
  if (runs.length === 2) {
    const [a, b] = runs as [string, string];
    if (/^[A-Za-z]/.test(a) && a.length >= 3) {
      return { weight: -1.6, reason: 'a word followed by a number (promo or label style)' };
    }
    if (/^\d/.test(a) && b.length >= 2)
      return { weight: -1.6, reason: 'a number followed by a unit' };
    return { weight: -0.3, reason: 'letters and digits in only two runs' };
  }
  if (hasUpper && hasLower)
    return { weight: -0.5, reason: 'mixed letter case (token or hash style)' };
  if (hasLower) return { weight: -0.3, reason: 'lower-case letters' };
  return { weight: 0.2, reason: 'letters and digits interleaved' };
}

/**
 * Letters-and-digits code split by one space into two groups of 3–4 (`KX7 4M2`, `Q4T8 Z2K9`):
 * upper case, each group mixing letters and digits (so `ABC 123`, `AB12 CDE` plates and IBAN
 * groups are not taken), and not a UK or Canadian postcode (`SW1A 1AA`, `K1A 0B1`). Returns the
 * end when it took the pair, else `start`.
 */
export function scanSpacedAlnum(text: string, start: number, out: CodeCandidate[]): number {
  const group = /^[A-Z0-9]{3,4}/;
  const first = group.exec(text.slice(start, start + 5))?.[0];
  if (first === undefined || text[start + first.length] !== ' ') return start;
  const at = start + first.length + 1;
  const second = group.exec(text.slice(at, at + 5))?.[0];
  if (second === undefined) return start;
  const end = at + second.length;
  const before = text[start - 1] ?? ' ';
  const after = text[end] ?? ' ';
  if (isAlnum(text.charCodeAt(start - 1)) || isAlnum(text.charCodeAt(end))) return start;
  if (isWordLetter(before.charCodeAt(0)) || isWordLetter(after.charCodeAt(0))) return start;
  if (PATH_NEIGHBOURS.includes(before) || PATH_NEIGHBOURS.includes(after)) return start;
  // A third group after another space: a longer identifier (IBAN, plate, serial), not a code.
  if (after === ' ' && /^[A-Z0-9]{2}/.test(text.slice(end + 1, end + 3))) return start;
  const mixed = (g: string) => /[A-Z]/.test(g) && /\d/.test(g);
  if (!mixed(first) || !mixed(second)) return start;
  if (/^[A-Z]{1,2}\d[A-Z\d]?$/.test(first) && /^\d[A-Z]{2}$/.test(second)) return start;
  if (/^[A-Z]\d[A-Z]$/.test(first) && /^\d[A-Z]\d$/.test(second)) return start;
  const value = first + second;
  out.push({
    value,
    start,
    end,
    kind: 'alnum',
    part: false,
    evidence: groupedEvidence(text, start, value, first.length === second.length, 'space', [
      { weight: -0.2, reason: 'letters-and-digits groups split by a space' },
    ]),
  });
  return end;
}

/**
 * The evidence of a letters-and-digits code written in groups: its length, whether the groups are
 * even (`sep` names the separator), what the shape adds, and a `#` before it.
 */
function groupedEvidence(
  text: string,
  start: number,
  value: string,
  even: boolean,
  sep: string,
  extra: readonly Evidence[] = [],
): Evidence[] {
  const evidence: Evidence[] = [
    { weight: 0.5, reason: `${value.length}-character letters-and-digits token` },
    even
      ? { weight: 0.15, reason: `evenly separated groups ('${sep}')` }
      : { weight: -0.25, reason: 'unevenly separated groups' },
    ...extra,
  ];
  if (neighbourBefore(text, start) === '#') {
    evidence.push({ weight: -2.5, reason: 'number sign before it (order or reference number)' });
  }
  return evidence;
}

/**
 * Letters-and-digits code split by hyphens (`K7P-2QX`, `ABC-123`): 2–4 characters per group,
 * upper case only (lower-case hyphenated words like `e-mail2go` are prose).
 */
export function scanCompound(text: string, start: number, out: CodeCandidate[]): number {
  const parts: string[] = [];
  let p = start;
  let end = start;
  while (parts.length < 4) {
    let q = p;
    while (q < text.length && isAlnum(text.charCodeAt(q))) q += 1;
    parts.push(text.slice(p, q));
    end = q;
    if (text[q] === '-' && isAlnum(text.charCodeAt(q + 1))) p = q + 1;
    else break;
  }
  if (parts.length < 2) return start;
  const value = parts.join('');
  if (value.length < 6 || value.length > 8 || !/[A-Z]/.test(value) || !/\d/.test(value))
    return start;
  // Groups of 2–4; the last of three or more may be a single character (`K4Z-9P2-7`).
  const short = (x: string, k: number) => x.length < 2 && !(k === parts.length - 1 && k >= 2);
  if (/[a-z]/.test(value) || parts.some((x, k) => short(x, k) || x.length > 4)) return start;
  const before = text[start - 1] ?? ' ';
  const after = text[end] ?? ' ';
  if (PATH_NEIGHBOURS.includes(before) || PATH_NEIGHBOURS.includes(after) || before === '-')
    return start;
  if (isWordLetter(before.charCodeAt(0)) || isWordLetter(after.charCodeAt(0))) return start;
  if (after === '.' && isAlnum(text.charCodeAt(end + 1))) return start;
  const even = parts.every((x) => x.length === parts[0]!.length);
  const evidence = groupedEvidence(text, start, value, even, '-');
  out.push({ value, start, end, kind: 'alnum', part: false, evidence });
  return end;
}
