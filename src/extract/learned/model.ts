/**
 * The learned scorer: decides which of the rules' candidates (analysis.ts) is the message's code
 * and which its link, from the features of features.ts and the weights the training script fitted
 * on the project's corpus (scripts/train-extractor.ts writes weights.bin; corpus/TRAINING.md lists
 * what it was trained on).
 *
 * Why: the rules alone came out at 88-91% exact on five thousand messages by thirteen authors they
 * had never seen; the words that make a number a sign-in code, a pickup code or a promo code are
 * an open set in forty languages. Fitted on the corpus, with the rules' evidence among its
 * features, the scorer reached 96% on each author's set when trained on the others (leave one set
 * out: bench/results/extract-generalization.md).
 *
 * Decision: the candidate with the highest probability, when it reaches the threshold; else none.
 * A plain link is preferred over a click-tracking redirect when both reach it. The probability is
 * the verdict's confidence (calibration: bench/results/extract-calibration.md).
 *
 * Invariants: deterministic; loading never throws (weights that are absent or malformed leave
 * `loadedWeights()` null and the extractor decides by the rules alone, as before the scorer).
 */
import { readFileSync } from 'node:fs';
import {
  type Candidate,
  dot,
  FEATURE_BITS,
  type Features,
  type ScoredMessage,
  type Weights,
} from './features.ts';

/**
 * A code is given from this probability up. An invented code costs more than a missed one (the
 * agent types a wrong or somebody else's code; a missed one is waited out or resent), so the
 * threshold is where trading one more invented code away costs more than about three right
 * answers. Leave-one-set-out over 32 author sets (13,654 records, 8,020 without a code):
 * 0.6 → 97.71% exact, 76 invented; 0.65 → 97.68%, 66; 0.7 → 97.56%, 58; 0.75 → 97.43%, 53;
 * 0.8 → 97.22%, 46; 0.9 → 96.32%, 31. From 0.6 to 0.75 each invented code avoided costs 1.7
 * right answers; from 0.75 to 0.8, 4.1.
 */
export const CODE_THRESHOLD = 0.75;
/**
 * A link likewise, higher: an agent following a wrong link does more harm than one told there is
 * none (0.5 → 0.7 costs 0.1% exact leave-one-set-out, and turns down the token-looking links of
 * "your photos are ready" and "Emma shared a file" texts).
 */
export const LINK_THRESHOLD = 0.7;
/** The probability a rules-vouched link is given (the precision measured for that case: 20/22). */
const VOUCHED = 0.9;

const MAGIC = 'LKW1';
const HEADER = 8;

/** weights.bin: "LKW1", FEATURE_BITS, 3 zero bytes, then the code and link tables as float16. */
export function encodeWeights(weights: Weights): Uint8Array {
  const size = 1 << FEATURE_BITS;
  const out = new Uint8Array(HEADER + 4 * size);
  out.set(new TextEncoder().encode(MAGIC), 0);
  out[4] = FEATURE_BITS;
  const tables = new Float16Array(out.buffer, HEADER, 2 * size);
  tables.set(weights.code, 0);
  tables.set(weights.link, size);
  return out;
}

export function decodeWeights(bytes: Uint8Array): Weights | null {
  const size = 1 << FEATURE_BITS;
  if (bytes.length !== HEADER + 4 * size) return null;
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC || bytes[4] !== FEATURE_BITS) {
    return null;
  }
  const aligned = new Uint8Array(bytes.length);
  aligned.set(bytes);
  const tables = new Float16Array(aligned.buffer, HEADER, 2 * size);
  return {
    code: Float32Array.from(tables.subarray(0, size)),
    link: Float32Array.from(tables.subarray(size)),
  };
}

let cached: Weights | null | undefined;

/** The shipped weights, read once; null when the file is missing or malformed. */
export function loadedWeights(): Weights | null {
  if (cached === undefined) {
    try {
      cached = decodeWeights(readFileSync(new URL('./weights.bin', import.meta.url)));
    } catch {
      cached = null;
    }
  }
  return cached;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export interface Scored {
  readonly value: string;
  readonly probability: number;
  readonly tracker?: boolean;
  readonly vetoed?: boolean;
  readonly vouched?: boolean;
}

function score(candidates: readonly Candidate[], message: Features, table: Float32Array): Scored[] {
  const shared = dot(message, table);
  return candidates.map((c) => ({
    value: c.value,
    tracker: c.tracker,
    vetoed: c.vetoed,
    vouched: c.vouched,
    probability: c.vetoed ? 0 : sigmoid(dot(c.features, table) + shared),
  }));
}

export interface LearnedDecision {
  /** Code candidates with their probabilities, in the rules' order. */
  readonly codes: readonly Scored[];
  readonly links: readonly Scored[];
  readonly code: Scored | null;
  readonly link: Scored | null;
}

export function decide(scored: ScoredMessage, weights: Weights): LearnedDecision {
  const codes = score(scored.codes, scored.message, weights.code);
  const links = score(scored.links, scored.message, weights.link);
  let code: Scored | null = null;
  for (const c of codes) {
    if (c.probability >= CODE_THRESHOLD && (code === null || c.probability > code.probability)) {
      code = c;
    }
  }
  const qualified = links
    .filter((l) => l.probability >= LINK_THRESHOLD)
    .sort((a, b) => b.probability - a.probability);
  let link = qualified.find((l) => !l.tracker) ?? qualified[0] ?? null;
  // A link the rules chose whose own text says "sign in" stands when the scorer would take none:
  // leave-one-set-out, where the two disagreed so, the rules were right 20 times of 22.
  if (link === null) {
    const vouched = links.find((l) => l.vouched && !l.vetoed);
    if (vouched !== undefined)
      link = { ...vouched, probability: Math.max(vouched.probability, VOUCHED) };
  }
  return {
    codes,
    links: link === null ? links : links.map((l) => (l.value === link.value ? link : l)),
    code,
    link,
  };
}
