/**
 * `npm run bench`: runs every suite in bench/suites/ one after another, each in a process of its
 * own (so one suite's heap and warm caches cannot flatter another), and writes each suite's
 * figures to bench/results/<suite>.json and .md. Every suite measures its own baseline in the same
 * run and reports ratios against it, because absolute numbers on a shared 2-core machine mean
 * little. Pass suite names to run only those: `npm run bench -- extract`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const wanted = process.argv.slice(2);
const suites = readdirSync(new URL('./suites/', import.meta.url))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -3))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

let failed = 0;
for (const suite of suites) {
  console.log(`\n== bench: ${suite}`);
  const result = spawnSync(process.execPath, [`bench/suites/${suite}.ts`], {
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  if (result.status !== 0) {
    failed += 1;
    console.error(`bench ${suite} failed with status ${result.status}`);
  }
}
console.log(`\n${suites.length - failed} suites ran, ${failed} failed; figures in bench/results/`);
process.exit(failed ? 1 : 0);
