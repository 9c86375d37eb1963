/**
 * Benchmark: confidence calibration of the extractor on BLIND verdicts.
 *
 * Every split the extractor has been tuned on, or whose misses have been read, comes out right, so
 * a reliability table over them (bench/results/extract-quality.md) can only say "100% in every
 * bucket". The verdicts that tell whether wrong answers carry low confidence are the blind ones:
 * each held-out set evaluated by the extractor as it stood when the set was committed, before
 * anyone looked. This suite rebuilds exactly those verdicts: it takes `src/extract` from the git
 * commit that froze each held-out set (`git archive`), runs it on that set, and pools the results
 * into a reliability table (confidence bucket → share exact), listing every wrong verdict with its
 * confidence. Sets 1–3 are left out: their blind commits predate the module's move to src/extract.
 * Writes bench/results/extract-calibration.json and .md (project root as cwd; needs git history).
 * Run: `node bench/suites/extract-calibration.ts` or `npm run bench -- extract-calibration`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  BUCKETS,
  type Extractor,
  evaluate,
  familyOf,
  loadSplit,
  type Outcome,
  reliability,
  type Split,
  summarize,
} from '../lib/corpus.ts';

/** Each held-out set and the commit that froze it (the extractor was unchanged in that commit). */
const BLIND: ReadonlyArray<{ split: Split; commit: string }> = [
  { split: 'heldout4', commit: 'd6fbec4' },
  { split: 'heldout5', commit: '1b41877' },
  { split: 'heldout6', commit: '0a1cb9f' },
  { split: 'heldout7', commit: '8134368' },
  { split: 'heldout8', commit: '95f5c98' },
  { split: 'heldout9', commit: 'c7d9db9' },
  { split: 'heldout10', commit: '32e420a' },
  { split: 'heldout11', commit: '9f87a25' },
  { split: 'heldout12', commit: '3a9d3ca' },
  { split: 'heldout13', commit: 'e3057a5' },
  { split: 'heldout14', commit: 'f16268e' },
  { split: 'heldout15', commit: '1a9c9bd' },
  { split: 'heldout16', commit: 'b68cc09' },
];

/** The extractor as committed in `commit`, unpacked beside a link to this checkout's packages. */
async function extractorAt(commit: string, scratch: string): Promise<Extractor> {
  const dir = join(scratch, commit);
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', commit, 'src/extract'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  return (await import(pathToFileURL(join(dir, 'src/extract/index.ts')).href)) as Extractor;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function run(): Promise<object> {
  const scratch = mkdtempSync(join(tmpdir(), 'latchkey-blind-'));
  try {
    const sets = [];
    const pooled: Outcome[] = [];
    for (const { split, commit } of BLIND) {
      const extractor = await extractorAt(commit, scratch);
      const outcomes = evaluate(loadSplit(split), extractor);
      pooled.push(...outcomes);
      sets.push({
        split,
        commit,
        summary: summarize(outcomes),
        wrong: outcomes
          .filter((o) => !o.exact)
          .map((o) => ({
            id: o.record.id,
            family: familyOf(o.record),
            expected: o.record.expect,
            got: { otp_code: o.verdict.otp_code, magic_link: o.verdict.magic_link },
            confidence: o.verdict.confidence,
          })),
      });
    }
    const buckets = reliability(pooled);
    const wrongAbove = (c: number) =>
      pooled.filter((o) => !o.exact && o.verdict.confidence >= c).length;
    const result = {
      suite: 'extract-calibration',
      date: new Date().toISOString(),
      sets,
      reliability: buckets,
      verdicts: pooled.length,
      wrong: pooled.filter((o) => !o.exact).length,
      wrongAtOrAbove: { '0.7': wrongAbove(0.7), '0.9': wrongAbove(0.9), '0.95': wrongAbove(0.95) },
    };
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/extract-calibration.json', `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync('bench/results/extract-calibration.md', markdown(result));
    return result;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function markdown(r: {
  date: string;
  sets: Array<{
    split: string;
    commit: string;
    summary: ReturnType<typeof summarize>;
    wrong: Array<{
      id: string;
      family: string;
      expected: { otp_code: string | null; magic_link: string | null };
      got: { otp_code: string | null; magic_link: string | null };
      confidence: number;
    }>;
  }>;
  reliability: ReturnType<typeof reliability>;
  verdicts: number;
  wrong: number;
  wrongAtOrAbove: Record<string, number>;
}): string {
  const lines = [
    '# Benchmark: extract-calibration (does a wrong answer carry low confidence?)',
    '',
    `${r.date}. Blind verdicts only: each held-out set run by the extractor of the commit that froze it, before its misses were read (the tuned splits are all right, so they cannot show calibration).`,
    '',
    '| set | frozen in | records | exact | exact rate | negatives | invented codes |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...r.sets.map(
      (s) =>
        `| ${s.split} | ${s.commit} | ${s.summary.records} | ${s.summary.exact} | ${pct(s.summary.exactRate)} | ${s.summary.negatives} | ${s.summary.invented} |`,
    ),
    '',
    '## Reliability of the blind verdicts',
    '',
    `Buckets from ${BUCKETS.join(', ')} (each up to the next, the last closed at 1); accuracy is the share of exact verdicts.`,
    '',
    '| confidence | verdicts | exact | accuracy |',
    '|---|---:|---:|---:|',
    ...r.reliability.map(
      (b) =>
        `| ${b.from.toFixed(2)}–${b.to.toFixed(2)} | ${b.verdicts} | ${b.exact} | ${b.accuracy === null ? '–' : pct(b.accuracy)} |`,
    ),
    '',
    `${r.wrong} of ${r.verdicts} blind verdicts were wrong; at or above confidence 0.7: ${r.wrongAtOrAbove['0.7']}, 0.9: ${r.wrongAtOrAbove['0.9']}, 0.95: ${r.wrongAtOrAbove['0.95']}.`,
    '',
    '## Wrong blind verdicts',
    '',
    '| set | id | family | expected | got | confidence |',
    '|---|---|---|---|---|---:|',
  ];
  for (const s of r.sets) {
    for (const w of s.wrong) {
      lines.push(
        `| ${s.split} | ${w.id} | ${w.family} | ${w.expected.otp_code ?? '–'} / ${w.expected.magic_link ?? '–'} | ${w.got.otp_code ?? '–'} / ${w.got.magic_link ?? '–'} | ${w.confidence} |`,
      );
    }
  }
  lines.push('');
  return lines.join('\n');
}

if (import.meta.main) {
  const result = (await run()) as { verdicts: number; wrong: number };
  process.stdout.write(
    `extract-calibration: ${result.wrong} wrong of ${result.verdicts} blind verdicts; see bench/results/extract-calibration.md\n`,
  );
}
