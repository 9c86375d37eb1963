/**
 * Picks the one-time code of a message from the candidates of all its segments.
 *
 * Score = shape evidence + context evidence (+ message-level evidence below). A candidate is the
 * code only when its score reaches CODE_THRESHOLD, which shape alone never does: something in the
 * message must point at it (a label, a verb asking to type it, a WebOTP line, its own line under a
 * code heading). Message-level evidence:
 * - the message talks about a code (label outside a warning, `<#>`/app hash): the single candidate
 *   with no negative evidence gets a bonus, because then no other number competes for the label;
 * - the same value found in several segments (subject and body, text and HTML) gets a small bonus.
 */
import { scanCandidates } from './candidates.ts';
import { addContextEvidence, hasCodeIntent } from './code-context.ts';
import { type CodeCandidate, type Evidence, sumEvidence } from './evidence.ts';
import { isPurposeCodeLabel } from './lexicon.ts';
import type { Segment } from './segment.ts';

export const CODE_THRESHOLD = 2.0;
/**
 * Outweighs the strongest wording a promo code gets ("Use code X": label + verb + only candidate,
 * about 5), so marketing gives no code however it phrases the offer.
 */
const MARKETING_PENALTY = -5;
/** Messages up to this length have room for one purpose only (an SMS is up to ~160). */
const SHORT_MESSAGE = 240;

export interface ScoredCode {
  readonly value: string;
  readonly score: number;
  readonly evidence: readonly Evidence[];
  /** Where its best-scored occurrence stands (none for a value only a WebOTP line states). */
  readonly at: { readonly segment: Segment; readonly start: number; readonly end: number } | null;
}

export interface CodeInputs {
  readonly segments: readonly Segment[];
  /** Code stated by a WebOTP line (SMS only). */
  readonly webOtpCode?: string | null;
  /** `<#>` prefix or Android app hash seen. */
  readonly retriever?: boolean;
}

const DIGITS = /^\d{4,8}$/;
const ALNUM = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9]{6,8}$/;

/** Promo words and no sign-in/verify word anywhere in the message. */
function isMarketing(segments: readonly Segment[]): boolean {
  let promo = false;
  for (const seg of segments) {
    for (const h of seg.hits) {
      if (h.cls === 'auth') return false;
      if (h.cls === 'code' && isPurposeCodeLabel(h.text)) return false;
      if (h.cls === 'promo') promo = true;
    }
  }
  return promo;
}

/**
 * Whether the message says what a code is for: a sign-in or verify word, a label that names a
 * sign-in purpose by itself ("verification code", "OTP", "验证码"), or an SMS Retriever / WebOTP
 * marker. A bare "code" (which promo, loyalty and referral codes share) says nothing of it.
 */
export function statesCodePurpose(inputs: CodeInputs): boolean {
  if (inputs.retriever === true || (inputs.webOtpCode ?? '') !== '') return true;
  return inputs.segments.some((seg) =>
    seg.hits.some((h) => h.cls === 'auth' || (h.cls === 'code' && isPurposeCodeLabel(h.text))),
  );
}

/** All code candidates of the message, merged by value and ranked best first. */
export function rankCodes(inputs: CodeInputs): ScoredCode[] {
  const all: Array<{ cand: CodeCandidate; source: string; segment: Segment | null }> = [];
  let intent = inputs.retriever === true;
  for (const seg of inputs.segments) {
    const cands = scanCandidates(seg);
    addContextEvidence(seg, cands);
    for (const cand of cands) all.push({ cand, source: seg.source, segment: seg });
    if (!intent && hasCodeIntent(seg)) intent = true;
  }
  // Message-level negative context: a message that sells (promo, discount, coupon, sale…) and
  // never speaks of signing in or verifying hands out promo codes, not sign-in codes, however
  // plainly it says "use code". A genuine one-time code always comes with a purpose word.
  if (isMarketing(inputs.segments)) {
    for (const { cand } of all) {
      cand.evidence.push({
        weight: MARKETING_PENALTY,
        reason: 'marketing message with no sign-in or verify word',
      });
    }
  }
  const web = inputs.webOtpCode?.replace(/-/g, '') ?? '';
  if (DIGITS.test(web) || ALNUM.test(web)) {
    intent = true;
    all.push({
      cand: {
        value: web,
        start: 0,
        end: 0,
        kind: DIGITS.test(web) ? 'digits' : 'alnum',
        part: false,
        evidence: [{ weight: 4, reason: 'stated by a WebOTP origin-bound line' }],
      },
      source: 'webotp',
      segment: null,
    });
  }
  // The only clean candidate of a message about a code (or of a short message asking to sign in
  // or verify) has no rival for the label: that is evidence of its own. "Clean" tolerates mild
  // shape doubts (looks like a year, mixed case) when the message names a code, none otherwise.
  const tolerance = intent ? -0.45 : -0.3;
  const clean = all.filter(
    ({ cand }) => !cand.part && cand.evidence.every((e) => e.weight > tolerance),
  );
  const values = new Set(clean.map(({ cand }) => cand.value));
  if (values.size === 1) {
    const short = inputs.segments.every((s) => s.text.length <= SHORT_MESSAGE);
    for (const { cand } of clean) {
      const asked = cand.evidence.some(
        (e) => e.weight > 0.3 && /^(asks to type|sign-in or verify)/.test(e.reason),
      );
      if (intent) {
        cand.evidence.push({
          weight: 0.5,
          reason: 'the only clean candidate in a message about a code',
        });
      } else if (short && asked) {
        cand.evidence.push({
          weight: 0.8,
          reason: 'the only clean candidate in a short sign-in message',
        });
      }
    }
  }
  // Merge by value: keep the best occurrence, note agreement between segments.
  const byValue = new Map<
    string,
    { best: CodeCandidate; segment: Segment | null; score: number; sources: Set<string> }
  >();
  for (const { cand, source, segment } of all) {
    const score = sumEvidence(cand.evidence);
    const seen = byValue.get(cand.value);
    if (seen === undefined) {
      byValue.set(cand.value, { best: cand, segment, score, sources: new Set([source]) });
    } else {
      seen.sources.add(source);
      if (score > seen.score) {
        seen.best = cand;
        seen.segment = segment;
        seen.score = score;
      }
    }
  }
  const ranked: ScoredCode[] = [];
  for (const [value, { best, segment, score, sources }] of byValue) {
    const evidence = [...best.evidence];
    let total = score;
    if (sources.size > 1 && score > 0) {
      const agree: Evidence = {
        weight: 0.2,
        reason: `found in ${[...sources].sort().join(' and ')}`,
      };
      evidence.push(agree);
      total += agree.weight;
    }
    ranked.push({
      value,
      score: total,
      evidence,
      at: segment === null ? null : { segment, start: best.start, end: best.end },
    });
  }
  ranked.sort((a, b) => b.score - a.score || b.value.length - a.value.length);
  return ranked;
}
