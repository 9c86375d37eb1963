/**
 * URLs written in plain text (SMS bodies, email text parts, visible HTML text).
 *
 * Plain text is not markup, so scanning it is fine here (markup is only ever read by html.ts).
 * Understood forms: bare `https://…`, `<https://…>` (possibly wrapped over several lines: the
 * whitespace is removed), `( https://… )`, `[https://…]` and quoted. Trailing sentence punctuation
 * and unbalanced closing brackets are not part of the URL. Only absolute http(s) URLs count.
 * A URL glued to text in a script written without spaces ends at the punctuation before that
 * text: normalisation turned the full-width `，` `；` `（` of `…/Zq8N2k，10分钟内有效` into ASCII, and
 * `,10` (or `(24` of `（24時間有効）`) is the start of the next clause, not part of the link.
 * Each result carries the span it occupies in the text, so callers can mask it from code search
 * and read the words around it.
 */

export interface TextUrl {
  readonly url: string;
  /** Span of the whole literal in the text, brackets included. */
  readonly start: number;
  readonly end: number;
}

const MAX_URL = 4096;
/** Enough for any real message; bounds the work on hostile input. */
const MAX_URLS = 500;
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '*', '>']);
const CLOSERS: Record<string, string> = { '<': '>', '(': ')', '[': ']', '"': '"', "'": "'" };

function isUrlChar(c: number): boolean {
  return c > 0x20 && c < 0x7f && c !== 0x3c && c !== 0x3e && c !== 0x22 && c !== 0x60;
}

/**
 * Drops trailing sentence punctuation and closing brackets that have no partner inside the URL.
 * Linear in the URL's length: the bracket counts are taken once and decremented as characters are
 * dropped (recounting the whole prefix for each dropped `)` made a URL followed by thousands of
 * them quadratic, issue 11).
 */
function trimTrailing(url: string): string {
  const opens: Record<string, number> = { '(': 0, '[': 0, '{': 0 };
  const closes: Record<string, number> = { ')': 0, ']': 0, '}': 0 };
  for (const ch of url) {
    if (ch in opens) opens[ch]! += 1;
    else if (ch in closes) closes[ch]! += 1;
  }
  let end = url.length;
  while (end > 0) {
    const ch = url[end - 1]!;
    if (TRAILING.has(ch)) {
      end -= 1;
      continue;
    }
    if (ch === ')' || ch === ']' || ch === '}') {
      const open = ch === ')' ? '(' : ch === ']' ? '[' : '{';
      // Counts over url[0, end): the characters dropped so far are no longer counted.
      if (opens[open]! < closes[ch]!) {
        closes[ch]! -= 1;
        end -= 1;
        continue;
      }
    }
    break;
  }
  return url.slice(0, end);
}

/**
 * `,10` `;30` `!Ok` `(24` or a bare `(` at the end of a URL run that stopped against a non-ASCII
 * letter: the full-width `，` `；` `！` `（` of the next clause, made ASCII by normalisation
 * (`…/l/Rz7Wq2Kx9N（请勿转发他人）`).
 */
const GLUED_CLAUSE = /[,;!(][A-Za-z0-9]{0,6}$/;

function cutGluedClause(run: string, next: number): string {
  if (Number.isNaN(next) || next < 0x80) return run;
  const m = GLUED_CLAUSE.exec(run);
  return m === null ? run : run.slice(0, m.index);
}

function isAbsoluteHttp(url: string): boolean {
  if (!/^https?:\/\/[^\s/?#]+\.[^\s/?#]+/i.test(url)) return false;
  return URL.canParse(url);
}

/** Find URLs in normalised `text`; `fold` is its folded copy (same length). */
export function findTextUrls(text: string, fold: string): TextUrl[] {
  const found: TextUrl[] = [];
  let from = 0;
  while (from < fold.length && found.length < MAX_URLS) {
    const at = fold.indexOf('http', from);
    if (at === -1) break;
    const scheme = fold.startsWith('https://', at) ? 8 : fold.startsWith('http://', at) ? 7 : 0;
    if (scheme === 0 || (at > 0 && /[a-z0-9]/.test(fold[at - 1]!))) {
      from = at + 4;
      continue;
    }
    // Opening bracket right before the URL, possibly with spaces in between: `( https://… )`.
    let back = at - 1;
    while (back >= 0 && back >= at - 2 && text[back] === ' ') back -= 1;
    const opener = back >= 0 ? text[back]! : '';
    const closer = CLOSERS[opener];
    let end = at + scheme;
    let url = '';
    let spanEnd = end;
    if (opener === '<') {
      const tail = text.slice(end, at + MAX_URL);
      const rel = tail.indexOf('>');
      const close = rel === -1 ? -1 : end + rel;
      if (close !== -1) {
        url = text.slice(at, close).replace(/\s+/g, '');
        spanEnd = close + 1;
      }
    }
    if (url === '') {
      while (end < text.length && end - at < MAX_URL && isUrlChar(text.charCodeAt(end))) {
        if (closer !== undefined && text[end] === closer && closer !== ')') break;
        end += 1;
      }
      url = trimTrailing(cutGluedClause(text.slice(at, end), text.charCodeAt(end)));
      spanEnd = at + url.length;
      if (closer !== undefined) {
        let k = spanEnd;
        while (k < text.length && k - spanEnd <= 2 && text[k] === ' ') k += 1;
        if (text[k] === closer) spanEnd = k + 1;
      }
    }
    if (isAbsoluteHttp(url)) {
      found.push({ url, start: closer !== undefined ? back : at, end: spanEnd });
    }
    from = Math.max(spanEnd, at + scheme);
  }
  return found;
}
