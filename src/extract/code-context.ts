/**
 * Context evidence for code candidates: which keywords stand near each candidate and how.
 *
 * Positive: a code label ("code", "OTP", "認証番号"), a verb asking to type it ("enter", "masukkan")
 * and sign-in/verify words. Their weight decays with distance, halves across sentence ends, drops
 * for every other plausible candidate standing in between (the label belongs to the nearer
 * number) and is cut when the label sits inside a warning ("we will never ask for your code") or
 * a marketing sentence ("use code 5512 for $5 off").
 * Negative, only when the label TOUCHES the number (nothing but punctuation or a 1–3 letter word
 * between): references (order, booking, account, card ending…), phone labels and address words
 * before it; money words and currency on either side; time units and percentages after it; month
 * names on either side; "expired" or "was used" just after it. Also: a street word just after it (`1234 Main St`) and promo words in the
 * same sentence.
 * A copula touching the number ("… lautet 493027", "… is 307419", "… هو 602845") makes it the value
 * of the clause's subject: a code label heading that clause counts as if beside the number, however
 * many amounts and account numbers describe the subject in between, and a reference word inside
 * the subject ("the code to confirm your ORDER is …") names the code's purpose, not the number.
 * The other way round, a number that a copula names a code ("#482913 is your login code") is the
 * code whatever sign stands before it: a `#` or a reference word before it says nothing against it.
 * Invariant: only the strongest hit per positive class counts, so repeating "code" adds nothing.
 */
import type { CodeCandidate, Evidence } from './evidence.ts';
import { findKeywords, type Hit, isPurposeCodeLabel } from './lexicon.ts';
import { hitsBetween, type Segment } from './segment.ts';

const LEFT_WINDOW = 120;
/** Weight factor of a code label that heads the clause whose copula touches the number. */
const SUBJECT_FACTOR = 0.9;
const RIGHT_WINDOW = 80;
const POSITIVE = { code: 2.5, enter: 2.0, auth: 1.2 } as const;
type PositiveClass = keyof typeof POSITIVE;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const ADJACENT_FILLER = /[\s:：#№.\-*()[\]"'«»|،,]/g;
/** Between a month name and a year: the day, an ordinal suffix, a comma. */
const MONTH_DAY_GAP = /^\s*\d{1,2}(st|nd|rd|th)?\.?,?\s*$/;

function decay(distance: number): number {
  return distance <= 3 ? 1 : Math.max(0, 1 - (distance - 3) / 100);
}

const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/** Spaces, variation selectors and joiners that may follow a pictograph before the next word. */
const AFTER_PICTOGRAPH = /^(?:\s|\ufe0f|\u200d)*(\p{Lu})/u;

/**
 * An emoji used as a full stop: "… 1,200 Gems 💎 Your verification code: 3391". Only when a
 * capitalised word follows (mid-sentence emoji, "tap 👉 here", leave the sentence whole).
 * Cheap on the common path: only surrogate pairs and the U+2600–U+27BF symbols are examined.
 */
function endsWithPictograph(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  const high = code >= 0xd800 && code <= 0xdbff;
  if (!high && (code < 0x2600 || code > 0x27bf)) return false;
  const cp = text.codePointAt(i)!;
  if (!PICTOGRAPH.test(String.fromCodePoint(cp))) return false;
  return AFTER_PICTOGRAPH.test(text.slice(i + (high ? 2 : 1), i + 8));
}

/** Multiplier for sentence and line ends between two offsets. */
export function boundaryFactor(text: string, from: number, to: number): number {
  let factor = 1;
  // Inside parentheses a period ends an abbreviation ("(valid 15 min.)"), not the sentence.
  let parens = 0;
  const end = Math.min(to, from + 200);
  for (let i = from; i < end; i += 1) {
    const ch = text[i]!;
    if (ch === '(') parens += 1;
    else if (ch === ')' && parens > 0) parens -= 1;
    if (ch === '\n') {
      let k = i - 1;
      while (k >= from && text[k] === ' ') k -= 1;
      if (text[k] === ':' || text[k] === '：') continue;
      factor *= text[i + 1] === '\n' ? 0.6 : 0.8;
      if (text[i + 1] === '\n') i += 1;
    } else if ('!?。！？।؟'.includes(ch)) {
      factor *= 0.5;
    } else if (endsWithPictograph(text, i)) {
      factor *= 0.5;
    } else if (ch === '.') {
      const next = text[i + 1];
      const isEnd = next === undefined || next === ' ' || next === '\n' || i + 1 >= to;
      const prev1 = text[i - 1] ?? '';
      const prev2 = text[i - 2] ?? '';
      // A dot set off by spaces (" . ", common in Arabic and Persian typing) ends a sentence too.
      const loneDot = prev1 === ' ' && next === ' ';
      if (
        isEnd &&
        parens === 0 &&
        (loneDot || (LETTER_OR_DIGIT.test(prev1) && LETTER_OR_DIGIT.test(prev2)))
      )
        factor *= 0.5;
    }
    if (factor < 0.15) return 0.15;
  }
  return factor;
}

/**
 * Between `from` and `to` a line ends that is a complete statement of a one-time code: a label
 * that names a sign-in purpose ("login code", "验证码", "Anmeldecode") or a sign-in word, a colon,
 * then only a value running to the line end ("Your login code: 418 562"). The next line is a new
 * statement, so its marketing ("Invite friends and earn points!") does not reach back over it. A
 * bare "code" says nothing of purpose ("Your code: 48213\nShow it for a free drink" stays promo),
 * and a line without a colon may be one sentence wrapped ("Use code 551204\nfor 20% off").
 */
function purposeLineEndsBetween(seg: Segment, from: number, to: number): boolean {
  const text = seg.text;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) {
    const lineStart = text.lastIndexOf('\n', i - 1) + 1;
    if (i - lineStart > 120) continue;
    const m = /[:：]\s*([A-Za-z0-9][A-Za-z0-9 -]{2,20})\s*$/.exec(text.slice(lineStart, i));
    if (m === null || !/\d/.test(m[1]!)) continue;
    const colon = lineStart + m.index;
    for (const h of hitsBetween(seg.hits, lineStart, colon + 1)) {
      if (h.start < lineStart || h.end > colon + 1) continue;
      if (h.cls === 'auth' || (h.cls === 'code' && namesItsPurpose(h.text))) return true;
    }
  }
  return false;
}

/**
 * A code label that says what the code is for by one of its own words ("login code", "código de
 * acceso") or as one compound ("Anmeldecode", "验证码"); "your code" does not.
 */
function namesItsPurpose(label: string): boolean {
  let known = purposeLabels.get(label);
  if (known === undefined) {
    const words = label.split(' ');
    known =
      isPurposeCodeLabel(label) &&
      (words.length === 1 ||
        words.some((w) =>
          findKeywords(w).some(
            (k) => k.cls === 'auth' || (k.cls === 'code' && isPurposeCodeLabel(k.text)),
          ),
        ));
    // Labels come from the tables, so the cache is bounded by their size.
    purposeLabels.set(label, known);
  }
  return known;
}
const purposeLabels = new Map<string, boolean>();

/**
 * Nothing but punctuation, or one short connecting word ("no", "of", "de", "بـ", one CJK
 * particle), stands between a label and the number it labels. Another number in between means
 * the label belongs to that one.
 */
function isAdjacent(fold: string, from: number, to: number, maxWord = 3): boolean {
  if (to - from > 16) return false;
  const rest = fold.slice(from, to).replace(ADJACENT_FILLER, '');
  if (rest.length === 0) return true;
  if (/\d/.test(rest)) return false;
  if (/[\u2e80-\uffff]/.test(rest)) return rest.length <= Math.min(1, maxWord);
  return rest.length <= maxWord;
}

/** A warning ("never share") shortly before a code label, in the same sentence. */
function isWarned(seg: Segment, hit: Hit): boolean {
  for (const w of hitsBetween(seg.hits, hit.start - 40, hit.start)) {
    if (w.cls !== 'warning' || w.end > hit.start || hit.start - w.end > 40) continue;
    if (boundaryFactor(seg.text, w.end, hit.start) >= 0.8) return true;
  }
  return false;
}

/** A promo word in the same sentence as a code label: "use code 5512 for $5 off". */
function inMarketingSentence(seg: Segment, hit: Hit): boolean {
  for (const p of hitsBetween(seg.hits, hit.start - 60, hit.end + 60)) {
    if (p.cls !== 'promo') continue;
    if (p.start >= hit.end && labelsOwnValue(seg.fold, p)) continue;
    if (p.start >= hit.end && purposeLineEndsBetween(seg, hit.end, p.start)) continue;
    const [from, to] = p.end <= hit.start ? [p.end, hit.start] : [hit.end, p.start];
    if (to >= from && boundaryFactor(seg.text, from, to) >= 0.8) return true;
  }
  return false;
}

/** Code labels that are not part of a warning: the message talks about a code. */
export function hasCodeIntent(seg: Segment): boolean {
  return seg.hits.some((h) => h.cls === 'code' && !isWarned(seg, h));
}

export function addContextEvidence(seg: Segment, cands: readonly CodeCandidate[]): void {
  // Pass 1: what each number is labelled as. Numbers that are clearly not codes (masked endings,
  // order numbers…) do not steal a nearby code label from the real code in pass 2.
  const penaltiesOf = cands.map((cand) => negativeEvidence(seg, cand));
  const distractor = new Set<CodeCandidate>();
  cands.forEach((cand, i) => {
    const total = [...cand.evidence, ...penaltiesOf[i]!].reduce((t, e) => t + e.weight, 0);
    if (total < 0) distractor.add(cand);
  });
  const byStart = [...cands].sort((a, b) => a.start - b.start);
  cands.forEach((cand, i) => {
    if (namedAsCode(seg, cand)) {
      const kept = cand.evidence.filter((e) => !e.reason.startsWith('number sign before it'));
      cand.evidence.length = 0;
      cand.evidence.push(...kept);
    }
    const copula = copulaBefore(seg, cand);
    const alone = standaloneLine(seg.text, cand);
    // A code set apart under a paragraph that announces it: the paragraph's label counts however
    // long the paragraph is ("…enter the following code on the sign-in page.\n\n881 204").
    const above = alone ? lineAbove(seg.text, cand.start) : null;
    const from0 =
      above === null ? cand.start - LEFT_WINDOW : Math.min(above[0], cand.start - LEFT_WINDOW);
    const hits = hitsBetween(seg.hits, from0, cand.end + RIGHT_WINDOW);
    const best: Record<PositiveClass, Evidence | null> = { code: null, enter: null, auth: null };
    for (const h of hits) {
      if (h.cls !== 'code' && h.cls !== 'enter' && h.cls !== 'auth') continue;
      if (h.end > cand.start && h.start < cand.end) continue;
      const left = h.end <= cand.start;
      // "key AKQ72XZ9 with code 6028 13": a label touching the number after it labels that one.
      if (!left && h.cls === 'code' && labelsTheNextOne(seg, byStart, cand, h)) continue;
      const from = left ? h.end : cand.end;
      const to = left ? cand.start : h.start;
      let f = decay(to - from) * boundaryFactor(seg.text, from, to) * (left ? 1 : 0.85);
      f *= 0.5 ** between(byStart, distractor, cand, from, to);
      let note = '';
      if (above !== null && h.start >= above[0] && h.end <= above[1] && f < 0.6) {
        f = 0.6;
        note = ' in the paragraph just above';
      }
      if (
        h.cls === 'code' &&
        copula !== null &&
        f < SUBJECT_FACTOR &&
        headsClause(seg, h, copula)
      ) {
        f = SUBJECT_FACTOR;
        note = ` bound to it by "${copula.text}"`;
      }
      if (h.cls === 'code' && isWarned(seg, h)) {
        f *= 0.35;
        note = ' inside a warning';
      } else if (h.cls === 'code' && inMarketingSentence(seg, h)) {
        f *= 0.4;
        note = ' in a marketing sentence';
      }
      const weight = POSITIVE[h.cls] * f;
      const seen = best[h.cls];
      if (weight > 0.01 && (seen === null || weight > seen.weight)) {
        const kind =
          h.cls === 'code'
            ? 'code label'
            : h.cls === 'enter'
              ? 'asks to type it'
              : 'sign-in or verify word';
        best[h.cls] = { weight, reason: `${kind} "${h.text}" ${left ? 'before' : 'after'}${note}` };
      }
    }
    for (const e of Object.values(best)) if (e !== null) cand.evidence.push(e);
    cand.evidence.push(...penaltiesOf[i]!);
    if (alone) cand.evidence.push({ weight: 0.4, reason: 'set apart on its own line' });
  });
}

function negativeEvidence(seg: Segment, cand: CodeCandidate): Evidence[] {
  const hits = hitsBetween(seg.hits, cand.start - LEFT_WINDOW, cand.end + RIGHT_WINDOW);
  const penalties = new Map<string, Evidence>();
  const penalize = (key: string, e: Evidence) => {
    const seen = penalties.get(key);
    if (seen === undefined || seen.weight > e.weight) penalties.set(key, e);
  };
  for (const h of hits) {
    if (h.end > cand.start && h.start < cand.end) continue;
    const left = h.end <= cand.start;
    const from = left ? h.end : cand.end;
    const to = left ? cand.start : h.start;
    // A word after a sentence end describes the next sentence, not this number ("5928. Balance:").
    const adjacent =
      isAdjacent(seg.fold, from, to) && (left || boundaryFactor(seg.text, from, to) === 1);
    const where = left ? 'before' : 'after';
    const label = `"${h.text}"`;
    switch (h.cls) {
      case 'reference':
        if (
          left &&
          (adjacent || nextToIdentifier(seg.fold, from, to)) &&
          !namesCodePurpose(seg, h, cand) &&
          !namedAsCode(seg, cand)
        )
          penalize('reference', {
            weight: -3,
            reason: `labelled as a reference/account number by ${label}`,
          });
        break;
      case 'phone':
        if (left && adjacent && !insideCodeSubject(seg, h, cand))
          penalize('phone', { weight: -2.5, reason: `phone label ${label} before` });
        break;
      case 'address':
        if (left && adjacent && !insideCodeSubject(seg, h, cand)) {
          penalize('address', { weight: -2, reason: `address word ${label} before` });
        }
        // `1234 Main St`: a house number a couple of words before a street word.
        if (!left && to - from <= 15 && boundaryFactor(seg.text, from, to) === 1) {
          penalize('address', { weight: -2, reason: `street address: ${label} after` });
        }
        break;
      case 'money':
        // A currency or money word names an amount only when it touches it ("EUR 50", "50 €",
        // "Balance: 12"); "euro è 338201" and "330912 per pagamento" are not amounts.
        if (
          adjacent &&
          isAdjacent(seg.fold, from, to, 0) &&
          (left ? !closesAmount(seg.fold, h) : !labelsNext(seg.fold, h))
        )
          penalize('money', { weight: -3, reason: `money: ${label} ${where}` });
        break;
      case 'alert':
        // "Your one-time code 7793 expired", "code 4410 was used": the number is spent.
        if (!left && to - from <= 12 && boundaryFactor(seg.text, from, to) === 1)
          penalize('alert', { weight: -3, reason: `reported as spent: ${label} after` });
        break;
      case 'units':
        if (!left && adjacent)
          penalize('units', { weight: -2.5, reason: `quantity: unit ${label} after` });
        break;
      case 'dates':
        if (adjacent && (left || !labelsNext(seg.fold, h)))
          penalize('dates', { weight: -2, reason: `date: ${label} ${where}` });
        // "Nov 3, 2026", "March 14th 2026": the year after a month and its day.
        else if (left && /^\d{4}$/.test(cand.value) && MONTH_DAY_GAP.test(seg.fold.slice(from, to)))
          penalize('dates', { weight: -2.5, reason: `date: the year after ${label} and a day` });
        break;
      case 'promo': {
        // "…265 903\n邀请码 ABC123XY": a promo label after the number names its own value.
        if (!left && labelsOwnValue(seg.fold, h)) break;
        if (!left && purposeLineEndsBetween(seg, from, to)) break;
        const sameSentence = boundaryFactor(seg.text, from, to) >= 0.8;
        const w = adjacent ? -3 : sameSentence ? -2 * decay(to - from) : 0;
        if (w < -0.05) penalize('promo', { weight: w, reason: `marketing word ${label} ${where}` });
        break;
      }
      default:
        break;
    }
  }
  return [...penalties.values()];
}

/**
 * A money or date word after the number that is itself followed by a value ("金額：85,000円",
 * "(이체 500,000원") labels that value, not the number before it.
 */
function labelsNext(fold: string, hit: Hit): boolean {
  return /^[\s:#№]{0,3}[\d$€£¥₹₽]/.test(fold.slice(hit.end, hit.end + 5));
}

/**
 * A currency written after an amount ("300,00 zł: 661 022", "50 € — 4471") closes that amount;
 * it does not label the number after it.
 */
function closesAmount(fold: string, hit: Hit): boolean {
  return /\d[\s\u00a0]?$/.test(fold.slice(Math.max(0, hit.start - 2), hit.start));
}

/**
 * A label followed at once by a value of its own, a token with a digit in it ("邀请码 ABC123XY",
 * "promo code: SAVE10"): the label names that value, not a number or label before it.
 */
function labelsOwnValue(fold: string, hit: Hit): boolean {
  return /^[\s:：#№]{0,3}(?=[a-z-]*\d)[a-z0-9][a-z0-9-]{3,}/.test(
    fold.slice(hit.end, hit.end + 24),
  );
}

/**
 * Between a reference word and the number stands one identifier piece and punctuation only
 * ("paquete ES2026 5550 1234"): the number continues the identifier the word labels.
 */
function nextToIdentifier(fold: string, from: number, to: number): boolean {
  if (to - from > 24) return false;
  const tokens = fold.slice(from, to).replace(ADJACENT_FILLER, ' ').trim().split(/\s+/);
  return tokens.length === 1 && /^[a-z]{0,4}\d[a-z0-9]*$/.test(tokens[0]!);
}

/** A copula touching the number on its left, with nothing but punctuation between. */
function copulaBefore(seg: Segment, cand: CodeCandidate): Hit | null {
  for (const h of hitsBetween(seg.hits, cand.start - 12, cand.start)) {
    if (h.cls === 'copula' && h.end <= cand.start && isAdjacent(seg.fold, h.end, cand.start, 0))
      return h;
  }
  return null;
}

/**
 * A copula right after the number and a code label right after the copula, in one clause:
 * "482913 is your login code", "#550219 es tu código", "803112是您的验证码".
 */
function namedAsCode(seg: Segment, cand: CodeCandidate): boolean {
  for (const c of hitsBetween(seg.hits, cand.end, cand.end + 12)) {
    if (c.cls !== 'copula' || c.start < cand.end || !isAdjacent(seg.fold, cand.end, c.start, 0))
      continue;
    return hitsBetween(seg.hits, c.end, c.end + 24).some(
      (h) =>
        h.cls === 'code' &&
        h.start >= c.end &&
        h.start - c.end <= 20 &&
        !/\d/.test(seg.fold.slice(c.end, h.start)) &&
        boundaryFactor(seg.text, c.end, h.start) === 1,
    );
  }
  return false;
}

/**
 * `label` opens the clause that `copula` closes: same sentence, within the left window, and no
 * other copula in between that stands as a word (it would have a subject of its own; `ES` of an
 * IBAN `ES12…` is no copula).
 */
function headsClause(seg: Segment, label: Hit, copula: Hit): boolean {
  if (label.end > copula.start || copula.start - label.end > LEFT_WINDOW) return false;
  if (boundaryFactor(seg.text, label.end, copula.start) !== 1) return false;
  return !hitsBetween(seg.hits, label.end, copula.start).some(
    (h) =>
      h.cls === 'copula' &&
      h.start >= label.end &&
      h.end <= copula.start &&
      !LETTER_OR_DIGIT.test(seg.fold[h.end] ?? ''),
  );
}

/**
 * A word inside the subject of a clause that a code label heads and a copula closes on this
 * number ("رمز التحقق لتفعيل الخدمات عبر الهاتف هو: 602 915", "the code for your phone is 4471")
 * describes the code; it labels no number of its own, however close it stands to the copula.
 */
function insideCodeSubject(seg: Segment, word: Hit, cand: CodeCandidate): boolean {
  const copula = copulaBefore(seg, cand);
  if (copula === null || copula.start < word.end) return false;
  return hitsBetween(seg.hits, word.start - LEFT_WINDOW, word.start).some(
    (h) => h.cls === 'code' && h.end <= word.start && headsClause(seg, h, copula),
  );
}

/**
 * A reference word inside a clause that a code label heads and a copula closes on this number
 * ("the code to confirm your order is 381027", "رمز التحقق لإتمام طلبك هو 602845") says what the
 * code is for; it labels no number of its own.
 */
function namesCodePurpose(seg: Segment, reference: Hit, cand: CodeCandidate): boolean {
  const copula = copulaBefore(seg, cand);
  if (copula === null || copula.start < reference.end) {
    // "Kod do płatności kartą: 6610 2219": the label phrase, closed by a colon, ends in the
    // reference word; the code label heading it names the number.
    if (!/^\s*:\s*$/.test(seg.fold.slice(reference.end, cand.start))) return false;
    return hitsBetween(seg.hits, reference.start - 40, reference.start).some(
      (h) =>
        h.cls === 'code' &&
        h.end <= reference.start &&
        reference.start - h.end <= 30 &&
        !/\d/.test(seg.fold.slice(h.end, reference.start)) &&
        boundaryFactor(seg.text, h.end, reference.start) === 1,
    );
  }
  return hitsBetween(seg.hits, reference.start - 60, reference.start).some(
    (h) =>
      h.cls === 'code' &&
      h.end <= reference.start &&
      !/\d/.test(seg.fold.slice(h.end, reference.start)) &&
      headsClause(seg, h, copula),
  );
}

/** Another candidate starts right after `label` (nothing but punctuation or a short word between). */
function labelsTheNextOne(
  seg: Segment,
  byStart: readonly CodeCandidate[],
  self: CodeCandidate,
  label: Hit,
): boolean {
  return byStart.some(
    (c) => c !== self && c.start >= label.end && isAdjacent(seg.fold, label.end, c.start),
  );
}

/** Other plausible candidates lying wholly between a keyword and this candidate (sorted input). */
function between(
  byStart: readonly CodeCandidate[],
  distractor: ReadonlySet<CodeCandidate>,
  self: CodeCandidate,
  from: number,
  to: number,
): number {
  let lo = 0;
  let hi = byStart.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byStart[mid]!.start < from) lo = mid + 1;
    else hi = mid;
  }
  let count = 0;
  for (let k = lo; k < byStart.length && byStart[k]!.start < to && count < 3; k += 1) {
    const c = byStart[k]!;
    if (c === self || c.part || distractor.has(c)) continue;
    if (c.end <= to) count += 1;
  }
  return count;
}

/** Span of the nearest non-empty line above `pos` (looking back at most 600 characters). */
function lineAbove(text: string, pos: number): [number, number] | null {
  const floor = Math.max(0, pos - 600);
  let k = text.lastIndexOf('\n', pos - 1);
  if (k < floor) return null;
  while (k > floor && (text[k] === '\n' || text[k] === ' ')) k -= 1;
  const end = k + 1;
  const start = text.lastIndexOf('\n', k) + 1;
  return end > start && start >= floor ? [start, end] : null;
}

/** Alone on its line (only punctuation around it), looking at most 12 characters either way. */
function standaloneLine(text: string, cand: CodeCandidate): boolean {
  const before = text.slice(Math.max(0, cand.start - 12), cand.start);
  const after = text.slice(cand.end, cand.end + 12);
  const nl1 = before.lastIndexOf('\n');
  const nl2 = after.indexOf('\n');
  const startsLine = nl1 !== -1 || cand.start - before.length === 0;
  const endsLine = nl2 !== -1 || cand.end + after.length === text.length;
  if (!startsLine || !endsLine) return false;
  if (
    cand.start - before.length === 0 &&
    cand.end + after.length === text.length &&
    nl1 === -1 &&
    nl2 === -1
  ) {
    return false; // the whole message, not a line set apart
  }
  const rest = before.slice(nl1 + 1) + (nl2 === -1 ? after : after.slice(0, nl2));
  return !LETTER_OR_DIGIT.test(rest);
}
