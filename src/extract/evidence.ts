/**
 * Evidence: a signed weight with a human-readable reason. Candidates (codes and links) collect
 * evidence; their score is the sum. Reasons name the evidence class and the keyword that fired,
 * never the surrounding message text, so dashboards can show why without copying the body.
 */

export interface Evidence {
  readonly weight: number;
  readonly reason: string;
}

/**
 * A code-shaped token (candidates.ts, alnum.ts) and the evidence about it. Declared here, beside
 * Evidence, so the scanners share it without importing each other.
 */
export interface CodeCandidate {
  /** What a person types: separators and prefix removed, case kept. */
  readonly value: string;
  /** Span used for context, prefix included. */
  readonly start: number;
  readonly end: number;
  readonly kind: 'digits' | 'alnum';
  /** One group of a longer space-separated number. */
  readonly part: boolean;
  readonly evidence: Evidence[];
}

export function sumEvidence(evidence: readonly Evidence[]): number {
  let total = 0;
  for (const e of evidence) total += e.weight;
  return total;
}

/** Map a score onto 0..1; `threshold` maps to 0.5. */
export function probability(score: number, threshold: number): number {
  return 1 / (1 + Math.exp(-1.6 * (score - threshold)));
}

export function describeEvidence(e: Evidence): string {
  const sign = e.weight >= 0 ? '+' : '';
  return `${sign}${e.weight.toFixed(2)} ${e.reason}`;
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
