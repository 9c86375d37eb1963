/** Latency summaries shared by the suites: nearest-rank percentiles, in the unit given. */
export interface Stats {
  samples: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    samples: sorted.length,
    p50: round(at(0.5)),
    p90: round(at(0.9)),
    p99: round(at(0.99)),
    max: round(sorted.at(-1)!),
    mean: round(sorted.reduce((s, v) => s + v, 0) / sorted.length),
  };
}
