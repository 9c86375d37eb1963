/**
 * Benchmark: how the extractor does on messages by an author it has never read (issue 18).
 *
 * Leave one set out: each set written by one author (held-out sets 13 and up, training sets) is
 * taken out in turn, the learned scorer is trained on every other training split exactly as
 * scripts/train-extractor.ts trains the shipped one, and the set is evaluated by that scorer. The
 * rules alone (the extractor before the scorer) are evaluated on the same set beside it. Since
 * each set has its own author, beat and languages, this is the figure closest to "a stranger's
 * messages"; a set whose languages no other set has is harder than one whose languages recur,
 * so the figures are also given for records whose language at least COVERED other records share.
 * Pools every left-out verdict into a reliability table (confidence bucket → share exact), the
 * calibration of the scorer's confidence on messages it did not see.
 * Writes bench/results/extract-generalization.json and .md (project root as cwd).
 * Run: `node bench/suites/extract-generalization.ts` or `npm run bench -- extract-generalization`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { featuresOf, type Weights } from '../../src/extract/learned/features.ts';
import { train } from '../../src/extract/learned/train.ts';
import {
  analyseRecord,
  type CorpusRecord,
  familyOf,
  loadSplit,
  reliability,
  type Split,
  TRAINING_SPLITS,
  verdictOf,
} from '../lib/corpus.ts';

/** Sets each written by one author who never saw the extractor (corpus/README.md). */
const AUTHOR_SETS: readonly Split[] = TRAINING_SPLITS.filter((s) =>
  /^(heldout(1[3-9]|2\d)|train\d+)$/.test(s),
);
const COVERED = 60;

interface Row {
  split: Split;
  records: number;
  rules: { exact: number; invented: number };
  learned: { exact: number; invented: number };
  covered: { records: number; rules: number; learned: number };
}

const language = (r: CorpusRecord) => r.lang.split('-')[0]!;

export function run() {
  const examples = new Map<
    Split,
    { record: CorpusRecord; scored: ReturnType<typeof featuresOf> }[]
  >();
  for (const split of TRAINING_SPLITS) {
    examples.set(
      split,
      loadSplit(split).map((record) => ({ record, scored: featuresOf(analyseRecord(record)) })),
    );
  }
  const rows: Row[] = [];
  const pooled: { verdict: { confidence: number }; exact: boolean; record: CorpusRecord }[] = [];
  const families = new Map<string, { records: number; rules: number; learned: number }>();
  const misses: string[] = [];
  for (const held of AUTHOR_SETS) {
    const training = TRAINING_SPLITS.filter((s) => s !== held).flatMap((s) =>
      examples.get(s)!.map(({ record, scored }) => ({
        scored,
        code: record.expect.otp_code,
        link: record.expect.magic_link,
      })),
    );
    const weights: Weights = train(training);
    const languages = new Map<string, number>();
    for (const s of TRAINING_SPLITS) {
      if (s === held) continue;
      for (const { record } of examples.get(s)!) {
        languages.set(language(record), (languages.get(language(record)) ?? 0) + 1);
      }
    }
    const row: Row = {
      split: held,
      records: 0,
      rules: { exact: 0, invented: 0 },
      learned: { exact: 0, invented: 0 },
      covered: { records: 0, rules: 0, learned: 0 },
    };
    for (const { record } of examples.get(held)!) {
      const rules = verdictOf(record, null);
      const learned = verdictOf(record, weights);
      const right = (v: { otp_code: string | null; magic_link: string | null }) =>
        v.otp_code === record.expect.otp_code && v.magic_link === record.expect.magic_link;
      const negative = record.expect.otp_code === null;
      row.records += 1;
      if (right(rules)) row.rules.exact += 1;
      if (right(learned)) row.learned.exact += 1;
      else
        misses.push(
          `| ${held} | ${record.id} | ${record.lang} | ${familyOf(record)} | ${record.expect.otp_code ?? '–'} / ${record.expect.magic_link ? 'link' : '–'} | ${learned.otp_code ?? '–'} / ${learned.magic_link ? (learned.magic_link === record.expect.magic_link ? 'link' : 'other link') : '–'} | ${learned.confidence} |`,
        );
      if (negative && rules.otp_code !== null) row.rules.invented += 1;
      if (negative && learned.otp_code !== null) row.learned.invented += 1;
      if ((languages.get(language(record)) ?? 0) >= COVERED) {
        row.covered.records += 1;
        if (right(rules)) row.covered.rules += 1;
        if (right(learned)) row.covered.learned += 1;
      }
      const family = families.get(familyOf(record)) ?? { records: 0, rules: 0, learned: 0 };
      family.records += 1;
      if (right(rules)) family.rules += 1;
      if (right(learned)) family.learned += 1;
      families.set(familyOf(record), family);
      pooled.push({ verdict: learned, exact: right(learned), record });
    }
    rows.push(row);
    console.log(
      `extract-generalization ${held}: rules ${row.rules.exact}/${row.records}, learned ${row.learned.exact}/${row.records} (${row.learned.invented} invented)`,
    );
  }
  const table = reliability(
    pooled.map((p) => ({
      record: p.record,
      verdict: p.verdict as never,
      exact: p.exact,
      invented: false,
    })),
  );
  const result = {
    suite: 'extract-generalization',
    at: new Date().toISOString(),
    cpu: cpus()[0]?.model ?? 'unknown',
    covered: COVERED,
    rows,
    families: Object.fromEntries(families),
    reliability: table,
  };
  write(result, misses);
  return result;
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);

function write(result: ReturnType<typeof run>, misses: string[]) {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/extract-generalization.json',
    `${JSON.stringify(result, null, 2)}\n`,
  );
  const total = result.rows.reduce(
    (t, r) => ({
      records: t.records + r.records,
      rules: t.rules + r.rules.exact,
      learned: t.learned + r.learned.exact,
      rulesInvented: t.rulesInvented + r.rules.invented,
      learnedInvented: t.learnedInvented + r.learned.invented,
      covered: t.covered + r.covered.records,
      coveredRules: t.coveredRules + r.covered.rules,
      coveredLearned: t.coveredLearned + r.covered.learned,
    }),
    {
      records: 0,
      rules: 0,
      learned: 0,
      rulesInvented: 0,
      learnedInvented: 0,
      covered: 0,
      coveredRules: 0,
      coveredLearned: 0,
    },
  );
  const md = `# Benchmark: extract-generalization (leave one author's set out)

${result.at}. Method: the header of \`bench/suites/extract-generalization.ts\`. Each row is one set, written by one author; the learned scorer that judges it was trained on every other training split (never on that set), exactly as the shipped one is trained on all of them. "Rules" is the extractor without the scorer, on the same set. "Covered" counts only records whose language has at least ${result.covered} records in the other sets. Exact: code and link both right; invented: a code given for a message without one.

| set | records | rules exact | learned exact | rules invented | learned invented | covered records | rules (covered) | learned (covered) |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${result.rows.map((r) => `| ${r.split} | ${r.records} | ${pct(r.rules.exact, r.records)} | ${pct(r.learned.exact, r.records)} | ${r.rules.invented} | ${r.learned.invented} | ${r.covered.records} | ${pct(r.covered.rules, r.covered.records)} | ${pct(r.covered.learned, r.covered.records)} |`).join('\n')}
| **all** | ${total.records} | ${pct(total.rules, total.records)} | **${pct(total.learned, total.records)}** | ${total.rulesInvented} | ${total.learnedInvented} | ${total.covered} | ${pct(total.coveredRules, total.covered)} | **${pct(total.coveredLearned, total.covered)}** |

## Per family (all left-out verdicts)

| family | records | rules exact | learned exact |
|---|---:|---:|---:|
${Object.entries(result.families)
  .sort()
  .map(
    ([f, v]) =>
      `| ${f} | ${v.records} | ${pct(v.rules, v.records)} | ${pct(v.learned, v.records)} |`,
  )
  .join('\n')}

## Calibration of the learned scorer on messages it did not see

Every left-out verdict, by the confidence it carried; accuracy is the share exact.

| confidence | verdicts | exact | accuracy |
|---|---:|---:|---:|
${result.reliability.map((b) => `| ${b.from.toFixed(2)}–${b.to.toFixed(2)} | ${b.verdicts} | ${b.exact} | ${b.accuracy === null ? '–' : `${(100 * b.accuracy).toFixed(1)}%`} |`).join('\n')}

## Wrong left-out verdicts

| set | id | lang | family | expected code / link | got | confidence |
|---|---|---|---|---|---|---:|
${misses.join('\n')}
`;
  writeFileSync('bench/results/extract-generalization.md', md);
}

if (import.meta.main) run();
