/**
 * Training of the learned scorer: logistic regression over the hashed features of features.ts,
 * fitted by AdaGrad, one example per candidate (is this candidate the message's code, or link?).
 * Deterministic: the same examples in the same order and the same seed give bit-identical
 * weights, so the committed weights can be rebuilt and compared (scripts/train-extractor.ts).
 *
 * Not used at run time; the extractor loads the weights it wrote (model.ts).
 * Why by hand: the whole fit is the twenty lines below over sparse hashed features (2^18 columns);
 * the JavaScript libraries for logistic regression (ml-logistic-regression and the like) take
 * dense matrices, 2^18 columns by ~40,000 rows.
 */
import { dot, FEATURE_BITS, type Features, type ScoredMessage, type Weights } from './features.ts';

export interface TrainingExample {
  readonly scored: ScoredMessage;
  readonly code: string | null;
  readonly link: string | null;
}

export interface TrainOptions {
  epochs: number;
  learningRate: number;
  l2: number;
  /** The first shuffling seed; fits `seed`, `seed + 1`, … `seed + fits - 1` are averaged. */
  seed: number;
  /** How many fits (each its own shuffle) are averaged. */
  fits: number;
}

export const TRAIN_OPTIONS: TrainOptions = {
  epochs: 8,
  learningRate: 0.1,
  l2: 1e-6,
  seed: 1,
  fits: 5,
};

/**
 * The average of `options.fits` fits, each over its own shuffle. One fit's verdict on a message
 * near the threshold depends on the order it saw the examples in (a marketing "Use code 551204 for
 * 20% off" scored 0.30 to 0.93 across five seeds); the average of the fits is one linear scorer
 * whose weights vary far less with the order.
 */
function averagedFit(
  items: { candidate: Features; message: Features; y: number }[],
  options: TrainOptions,
): Float32Array {
  const sum = new Float32Array(1 << FEATURE_BITS);
  for (let k = 0; k < options.fits; k++) {
    const w = fitScorer(items, { ...options, seed: options.seed + k });
    for (let i = 0; i < sum.length; i++) sum[i]! += w[i]!;
  }
  for (let i = 0; i < sum.length; i++) sum[i]! /= options.fits;
  return sum;
}

function fitScorer(
  items: { candidate: Features; message: Features; y: number }[],
  options: TrainOptions,
): Float32Array {
  const size = 1 << FEATURE_BITS;
  const w = new Float32Array(size);
  const g2 = new Float32Array(size);
  let state = options.seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const order = items.map((_, i) => i);
  const step = (f: Features, g: number) => {
    for (let k = 0; k < f.index.length; k++) {
      const ix = f.index[k]!;
      const gi = g * f.value[k]! + options.l2 * w[ix]!;
      g2[ix]! += gi * gi;
      w[ix]! -= (options.learningRate * gi) / Math.sqrt(g2[ix]! + 1e-8);
    }
  };
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const i of order) {
      const { candidate, message, y } = items[i]!;
      const p = 1 / (1 + Math.exp(-(dot(candidate, w) + dot(message, w))));
      step(candidate, p - y);
      step(message, p - y);
    }
  }
  return w;
}

/** Fits the code and link scorers on the examples. */
export function train(
  examples: readonly TrainingExample[],
  options: TrainOptions = TRAIN_OPTIONS,
): Weights {
  const codeItems: { candidate: Features; message: Features; y: number }[] = [];
  const linkItems: { candidate: Features; message: Features; y: number }[] = [];
  for (const { scored, code, link } of examples) {
    for (const c of scored.codes) {
      codeItems.push({
        candidate: c.features,
        message: scored.message,
        y: c.value === code ? 1 : 0,
      });
    }
    for (const l of scored.links) {
      linkItems.push({
        candidate: l.features,
        message: scored.message,
        y: l.value === link ? 1 : 0,
      });
    }
  }
  return { code: averagedFit(codeItems, options), link: averagedFit(linkItems, options) };
}
