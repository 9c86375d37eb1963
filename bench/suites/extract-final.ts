/**
 * Benchmark: the extractor on the final held-out sets (issue 18's "held-out part").
 *
 * Nine sets by nine authors who never saw the extractor, written from corpus/AUTHORING.md's brief,
 * committed unread, each label reviewed blind by a second reader (corpus/latchkey-final-
 * N-adjudication.jsonl), never trained on (BLIND_SPLITS in bench/lib/corpus.ts; a test keeps them
 * out of TRAINING_SPLITS), in three rounds. Each round's one blind look, by the scorer frozen
 * before it (273685a for sets 1-3, bc9ac32 for sets 4-6, e794984 for sets 7-9), is kept as
 * bench/results/extract-final-first-look.md, extract-final-round2-first-look.md and
 * extract-final-round3-first-look.md; running this suite again gives the current figures (for
 * rounds 1 and 2 no longer blind: their misses were read after their looks).
 * "Adjudicated" leaves out the records the second reader disputed (rule 6: ambiguous records are
 * left out); "all" counts every record as written.
 * Writes bench/results/extract-final.json and .md (project root as cwd).
 * Run: `node bench/suites/extract-final.ts` or `npm run bench -- extract-final`.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import {
  BLIND_SPLITS,
  type CorpusRecord,
  evaluate,
  FINAL_SETS,
  familyOf,
  type Judgment,
  type Outcome,
  readJsonLines,
  reliability,
  summarize,
} from '../lib/corpus.ts';

/** The ids the second reader disputed, with why. */
function disputedIn(path: string): Map<string, string> {
  if (!existsSync(path)) return new Map();
  return new Map(
    readJsonLines<Judgment>(path)
      .filter((j) => j.verdict === 'dispute')
      .map((j) => [j.id, j.why ?? '']),
  );
}

const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}%`;

export function run() {
  const sets = FINAL_SETS.map(({ name, round, path, adjudication }) => {
    const records = readJsonLines<CorpusRecord>(path);
    const disputed = disputedIn(adjudication);
    const outcomes = evaluate(records);
    const kept = outcomes.filter((o) => !disputed.has(o.record.id));
    return { name, round, outcomes, kept, disputed };
  });
  const rounds = [...new Set(sets.map((s) => s.round))].map((round) => {
    const of = sets.filter((s) => s.round === round);
    return {
      round,
      all: summarize(of.flatMap((s) => s.outcomes)),
      adjudicated: summarize(of.flatMap((s) => s.kept)),
    };
  });
  const all = sets.flatMap((s) => s.outcomes);
  const kept = sets.flatMap((s) => s.kept);
  const families = new Map<string, Outcome[]>();
  for (const o of kept)
    families.set(familyOf(o.record), [...(families.get(familyOf(o.record)) ?? []), o]);
  const result = {
    suite: 'extract-final',
    at: new Date().toISOString(),
    blindSplits: BLIND_SPLITS,
    sets: sets.map((s) => ({
      name: s.name,
      round: s.round,
      all: summarize(s.outcomes),
      adjudicated: summarize(s.kept),
      disputed: [...s.disputed.keys()],
    })),
    rounds,
    all: summarize(all),
    adjudicated: summarize(kept),
    families: Object.fromEntries([...families].sort().map(([f, o]) => [f, summarize(o)])),
    reliability: reliability(kept),
    wrong: all
      .filter((o) => !o.exact)
      .map((o) => ({
        set: sets.find((s) => s.outcomes.includes(o))!.name,
        id: o.record.id,
        lang: o.record.lang,
        family: familyOf(o.record),
        disputed: sets.some((s) => s.disputed.has(o.record.id)),
        expected: o.record.expect,
        got: { otp_code: o.verdict.otp_code, magic_link: o.verdict.magic_link },
        confidence: o.verdict.confidence,
      })),
  };
  write(result);
  for (const s of result.sets)
    console.log(
      `extract-final ${s.name}: ${s.adjudicated.exact}/${s.adjudicated.records} adjudicated (${s.adjudicated.invented} invented), ${s.all.exact}/${s.all.records} all`,
    );
  return result;
}

function write(result: ReturnType<typeof run>) {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/extract-final.json', `${JSON.stringify(result, null, 2)}\n`);
  const row = (name: string, a: ReturnType<typeof summarize>, b: ReturnType<typeof summarize>) =>
    `| ${name} | ${b.records} | ${b.exact} | ${pct(b.exact, b.records)} | ${b.negatives} | ${b.invented} | ${a.records} | ${a.exact} | ${pct(a.exact, a.records)} | ${a.invented} |`;
  const md = `# Benchmark: extract-final (the final held-out sets)

${result.at}. Method: the header of \`bench/suites/extract-final.ts\`. "Adjudicated": the records both readers agree on (the second reader disputed ${result.sets.reduce((n, s) => n + s.disputed.length, 0)} of ${result.all.records}); "all": every record as its author labelled it. Exact: code and link both right; invented: a code given for a message without one.

| set | adjudicated records | exact | exact rate | negatives | invented codes | all records | exact | exact rate | invented codes |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${result.sets.map((s) => row(`${s.name} (round ${s.round})`, s.all, s.adjudicated)).join('\n')}
${result.rounds.map((r) => row(`**round ${r.round}**`, r.all, r.adjudicated)).join('\n')}
${row('**all**', result.all, result.adjudicated)}

## Per family (adjudicated)

| family | records | exact | exact rate | negatives | invented codes |
|---|---:|---:|---:|---:|---:|
${Object.entries(result.families)
  .map(
    ([f, s]) =>
      `| ${f} | ${s.records} | ${s.exact} | ${pct(s.exact, s.records)} | ${s.negatives} | ${s.invented} |`,
  )
  .join('\n')}

## Calibration (adjudicated)

| confidence | verdicts | exact | accuracy |
|---|---:|---:|---:|
${result.reliability.map((b) => `| ${b.from.toFixed(2)}–${b.to.toFixed(2)} | ${b.verdicts} | ${b.exact} | ${b.accuracy === null ? '–' : `${(100 * b.accuracy).toFixed(1)}%`} |`).join('\n')}

## Wrong verdicts

| set | id | lang | family | disputed | expected code / link | got | confidence |
|---|---|---|---|---|---|---|---:|
${result.wrong.map((w) => `| ${w.set} | ${w.id} | ${w.lang} | ${w.family} | ${w.disputed ? 'yes' : ''} | ${w.expected.otp_code ?? '–'} / ${w.expected.magic_link ?? '–'} | ${w.got.otp_code ?? '–'} / ${w.got.magic_link ?? '–'} | ${w.confidence} |`).join('\n')}
`;
  writeFileSync('bench/results/extract-final.md', md);
}

if (import.meta.main) run();
