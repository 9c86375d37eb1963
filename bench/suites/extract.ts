/**
 * Benchmark: OTP / magic-link extraction throughput (src/extract).
 *
 * Measures messages per second on one core for the SMS and the HTML emails of the development
 * corpus: a warm-up, then several timed rounds, reporting the median round. A trivial baseline
 * (one `/\d{6}/` scan per message) is measured in the same run over the same messages, and the
 * ratio is reported, because absolute figures on a shared machine mean little. Each rate is given
 * by wall clock and per CPU-second this process used (process.cpuUsage), since on a loaded
 * machine the wall clock also counts other processes' turns on the core. Crafted worst-case
 * messages (the hostile shapes of test/extract/) are timed one by one against a 250 ms safety
 * bound, which lives here rather than in a test because a loaded machine makes it flaky there.
 * Writes bench/results/extract.json and bench/results/extract.md (project root as cwd).
 * Run: `node bench/suites/extract.ts` (Node 24) or `npm run bench -- extract`.
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { extractFromEmail, extractFromSms } from '../../src/extract/index.ts';
import { SPLITS } from '../lib/corpus.ts';

interface CorpusRecord {
  channel: 'sms' | 'email';
  from: string;
  subject?: string;
  text?: string;
  html?: string;
}

interface Figures {
  readonly messages: number;
  readonly rounds: number;
  readonly medianPerSecond: number;
  readonly minPerSecond: number;
  readonly maxPerSecond: number;
  readonly medianMicrosPerMessage: number;
  /**
   * Median messages per second of CPU time this process used (user + system): on a shared
   * machine the wall clock also counts the time other processes held the core.
   */
  readonly medianPerCpuSecond: number;
}

// The shared development corpus, copied into the repository (corpus/shared/).
const CORPUS = SPLITS.dev;
const OWN_DIR = fileURLToPath(new URL('../../corpus/', import.meta.url));
const OWN = existsSync(OWN_DIR)
  ? readdirSync(OWN_DIR)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .map((name) => `${OWN_DIR}${name}`)
  : [];
const ROUNDS = 7;
const ROUND_MS = 400;
const WARMUP_MS = 1000;

/** Stand-ins when the shared corpus is not mounted, so the suite still runs anywhere. */
const FALLBACK: CorpusRecord[] = [
  {
    channel: 'sms',
    from: 'ACME',
    text: 'Acme: 618273 is your one-time passcode, good for 10 minutes.',
  },
  {
    channel: 'sms',
    from: 'ACME',
    text: 'Acme Bank: $87.25 at GAS N GO needs verification. Code: 641188. Call 1-877-555-0181.',
  },
  { channel: 'sms', from: 'ACME', text: '【爱克美】您的登录验证码是 5281，请在3分钟内完成验证。' },
  {
    channel: 'sms',
    from: 'ACME',
    text: 'Acme: your order #20817 is on the way! Arriving 4:30-5:00 PM.',
  },
  {
    channel: 'email',
    from: 'no-reply@acme.example',
    subject: 'Sign in to Acme',
    text: 'Sign in: https://acme.example/login?token=Zq81Lx02Mp77',
    html: '<p>Your code:</p><p><span>552 019</span></p><a class="btn" href="https://acme.example/login?token=Zq81Lx02Mp77">Sign in</a><a href="https://acme.example/unsubscribe">Unsubscribe</a>',
  },
];

function loadCorpus(): { records: CorpusRecord[]; source: string } {
  if (!existsSync(CORPUS))
    return { records: FALLBACK, source: 'built-in sample (corpus not found)' };
  const records = readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorpusRecord);
  // Named as a reader finds it, never as a path on the machine that ran the bench.
  const source = process.env.LATCHKEY_CORPUS
    ? 'the file named by LATCHKEY_CORPUS'
    : 'corpus/shared/otp-dev.jsonl';
  return { records, source };
}

/** Runs `pass` (one pass over all messages) repeatedly; returns messages/second per round. */
function measure(messages: number, pass: () => number): Figures {
  let sink = 0;
  const warmEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmEnd) sink += pass();
  const rates: number[] = [];
  const cpuRates: number[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    let done = 0;
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    let elapsed = 0;
    do {
      sink += pass();
      done += messages;
      elapsed = performance.now() - start;
    } while (elapsed < ROUND_MS);
    const cpu = process.cpuUsage(cpu0);
    rates.push((done / elapsed) * 1000);
    cpuRates.push((done / Math.max(1, cpu.user + cpu.system)) * 1e6);
  }
  const cpuSorted = [...cpuRates].sort((a, b) => a - b);
  if (sink === Number.MIN_SAFE_INTEGER) process.stdout.write(''); // keep results observable
  const sorted = [...rates].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return {
    messages,
    rounds: ROUNDS,
    medianPerSecond: Math.round(median),
    minPerSecond: Math.round(sorted[0]!),
    maxPerSecond: Math.round(sorted[sorted.length - 1]!),
    medianMicrosPerMessage: Math.round((1e6 / median) * 100) / 100,
    medianPerCpuSecond: Math.round(cpuSorted[Math.floor(cpuSorted.length / 2)]!),
  };
}

const SIX_DIGITS = /\d{6}/;

/** Per-message safety bound for crafted input (formerly a timed assertion in the tests). */
const WORST_CASE_BOUND_MS = 250;

/** Crafted messages at the caps, one per hostile shape the tests name. */
function craftedMessages(): Array<{ name: string; extract: () => unknown }> {
  const digitsSms = '1234 5678 '.repeat(1000);
  const luresSms = 'Your code is 482913, order 55120934, code 771100. '.repeat(200);
  const brackets = `Sign in: https://acme.example/login?t=Ab12${')'.repeat(9_950)}`;
  const urlsSms = Array.from({ length: 300 }, (_, i) => `https://a.example/l/${i}?t=x${i}`).join(
    ' ',
  );
  const nested = `<p>Your code is 482913</p>${'<div>'.repeat(200_000)}<p>Other 771100</p>`;
  const cells = `<table><tr>${'<td>4</td><td>8</td>'.repeat(20_000)}</tr></table>`;
  const anchors = Array.from(
    { length: 5_000 },
    (_, i) => `<a href="https://acme.example/login?token=T${i}x">Sign in ${i}</a>`,
  ).join('');
  const longText = 'Your verification code is 482913. '.repeat(5_800);
  return [
    {
      name: 'SMS: 10,000 characters of 4-digit groups',
      extract: () => extractFromSms({ text: digitsSms }),
    },
    {
      name: 'SMS: code lures repeated to the cap',
      extract: () => extractFromSms({ text: luresSms }),
    },
    {
      name: 'SMS: a URL followed by 9,950 closing brackets',
      extract: () => extractFromSms({ text: brackets }),
    },
    { name: 'SMS: 300 URLs', extract: () => extractFromSms({ text: urlsSms }) },
    { name: 'email: HTML nested 200,000 deep', extract: () => extractFromEmail({ html: nested }) },
    {
      name: 'email: 40,000 one-digit table cells',
      extract: () => extractFromEmail({ html: cells }),
    },
    { name: 'email: 5,000 sign-in anchors', extract: () => extractFromEmail({ html: anchors }) },
    {
      name: 'email: 200 kB text part of code sentences',
      extract: () => extractFromEmail({ text: longText }),
    },
  ];
}

interface WorstCase {
  readonly name: string;
  /** Fastest of five runs, wall clock (the least disturbed by other processes). */
  readonly bestMs: number;
  readonly cpuMs: number;
}

function worstCases(): WorstCase[] {
  return craftedMessages().map(({ name, extract }) => {
    extract();
    let bestMs = Number.POSITIVE_INFINITY;
    let cpuMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i += 1) {
      const cpu0 = process.cpuUsage();
      const start = performance.now();
      extract();
      bestMs = Math.min(bestMs, performance.now() - start);
      const cpu = process.cpuUsage(cpu0);
      cpuMs = Math.min(cpuMs, (cpu.user + cpu.system) / 1000);
    }
    return { name, bestMs: Math.round(bestMs * 100) / 100, cpuMs: Math.round(cpuMs * 100) / 100 };
  });
}

export async function run(): Promise<object> {
  const { records, source } = loadCorpus();
  const sms = records.filter((r) => r.channel === 'sms');
  const htmlEmails = records.filter((r) => r.channel === 'email' && typeof r.html === 'string');

  // The project's own corpus (corpus/*.jsonl) adds the hard families: promo, distractors, links.
  const own = OWN.flatMap((path) =>
    existsSync(path)
      ? readFileSync(path, 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as CorpusRecord)
      : [],
  );
  const allSms = [...sms, ...own.filter((r) => r.channel === 'sms')];
  const allSmsExtract = measure(allSms.length, () => {
    let found = 0;
    for (const r of allSms)
      if (extractFromSms({ from: r.from, text: r.text ?? '' }).otp_code !== null) found += 1;
    return found;
  });
  const smsExtract = measure(sms.length, () => {
    let found = 0;
    for (const r of sms)
      if (extractFromSms({ from: r.from, text: r.text ?? '' }).otp_code !== null) found += 1;
    return found;
  });
  const smsBaseline = measure(sms.length, () => {
    let found = 0;
    for (const r of sms) if (SIX_DIGITS.exec(r.text ?? '') !== null) found += 1;
    return found;
  });
  const emailExtract = measure(htmlEmails.length, () => {
    let found = 0;
    for (const r of htmlEmails) {
      const v = extractFromEmail({ from: r.from, subject: r.subject, text: r.text, html: r.html });
      if (v.otp_code !== null || v.magic_link !== null) found += 1;
    }
    return found;
  });
  const emailBaseline = measure(htmlEmails.length, () => {
    let found = 0;
    for (const r of htmlEmails) {
      if (SIX_DIGITS.exec(r.subject ?? '') !== null) found += 1;
      if (SIX_DIGITS.exec(r.text ?? '') !== null) found += 1;
      if (SIX_DIGITS.exec(r.html ?? '') !== null) found += 1;
    }
    return found;
  });

  const crafted = worstCases();
  const result = {
    suite: 'extract',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    // The machine is shared: its load at the start says how much the figures below are squeezed.
    loadAverage1m: Math.round(loadavg()[0]! * 10) / 10,
    cores: cpus().length,
    corpus: source,
    method: `warm-up ${WARMUP_MS} ms, then ${ROUNDS} rounds of at least ${ROUND_MS} ms each; median round reported; single thread`,
    sms: {
      extract: smsExtract,
      baseline: smsBaseline,
      baselineOverExtract:
        Math.round((smsBaseline.medianPerSecond / smsExtract.medianPerSecond) * 10) / 10,
      targetPerSecond: 20_000,
      meetsTarget: smsExtract.medianPerSecond >= 20_000,
      meetsTargetPerCpuSecond: smsExtract.medianPerCpuSecond >= 20_000,
      allCorpora: allSmsExtract,
      allCorporaMeetsTarget: allSmsExtract.medianPerSecond >= 20_000,
      allCorporaMeetsTargetPerCpuSecond: allSmsExtract.medianPerCpuSecond >= 20_000,
    },
    htmlEmail: {
      extract: emailExtract,
      baseline: emailBaseline,
      baselineOverExtract:
        Math.round((emailBaseline.medianPerSecond / emailExtract.medianPerSecond) * 10) / 10,
    },
    worstCase: {
      boundMs: WORST_CASE_BOUND_MS,
      messages: crafted,
      withinBound: crafted.every((c) => c.bestMs < WORST_CASE_BOUND_MS),
    },
  };

  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/extract.json', `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync('bench/results/extract.md', markdown(result));
  return result;
}

function markdown(r: {
  date: string;
  node: string;
  cpu: string;
  loadAverage1m: number;
  cores: number;
  corpus: string;
  method: string;
  sms: {
    extract: Figures;
    baseline: Figures;
    baselineOverExtract: number;
    meetsTarget: boolean;
    meetsTargetPerCpuSecond: boolean;
    allCorpora: Figures;
    allCorporaMeetsTarget: boolean;
    allCorporaMeetsTargetPerCpuSecond: boolean;
  };
  htmlEmail: { extract: Figures; baseline: Figures; baselineOverExtract: number };
  worstCase: { boundMs: number; messages: WorstCase[]; withinBound: boolean };
}): string {
  const row = (name: string, f: Figures) =>
    `| ${name} | ${f.messages} | ${f.medianPerSecond.toLocaleString('en-US')} | ${f.minPerSecond.toLocaleString('en-US')}–${f.maxPerSecond.toLocaleString('en-US')} | ${f.medianMicrosPerMessage} | ${f.medianPerCpuSecond.toLocaleString('en-US')} |`;
  return [
    '# Benchmark: extract (OTP / magic-link extraction)',
    '',
    `${r.date} · Node ${r.node} · ${r.cpu} · ${r.cores} cores, 1-minute load average ${r.loadAverage1m} at the start`,
    '',
    `Corpus: ${r.corpus}. Method: ${r.method}.`,
    '',
    '| workload | messages | median msg/s | range msg/s | µs/msg | median msg per CPU-second |',
    '|---|---:|---:|---:|---:|---:|',
    row('SMS: extractFromSms', r.sms.extract),
    row('SMS: baseline /\\d{6}/ scan', r.sms.baseline),
    row('SMS: extractFromSms, dev + project corpora', r.sms.allCorpora),
    row('HTML email: extractFromEmail', r.htmlEmail.extract),
    row('HTML email: baseline /\\d{6}/ scan', r.htmlEmail.baseline),
    '',
    `Baseline is ${r.sms.baselineOverExtract}× faster on SMS and ${r.htmlEmail.baselineOverExtract}× faster on HTML email (it understands nothing; it is only a yardstick for this machine).`,
    `SMS target of 20,000 msg/s on one core, by wall clock: ${r.sms.meetsTarget ? 'met' : 'NOT met'} (dev corpus); ${r.sms.allCorporaMeetsTarget ? 'met' : 'NOT met'} (dev + project corpora). By CPU time used: ${r.sms.meetsTargetPerCpuSecond ? 'met' : 'NOT met'} (dev corpus); ${r.sms.allCorporaMeetsTargetPerCpuSecond ? 'met' : 'NOT met'} (dev + project corpora).`,
    "Wall-clock rates on this shared machine count the time other processes held the core (see the load average above); the CPU-time rate counts only this process's own work.",
    '',
    `## Crafted worst cases (safety bound ${r.worstCase.boundMs} ms per message)`,
    '',
    'Each message at the caps, fastest of five runs; the bound is a safety margin against runaway work, not a speed target.',
    '',
    '| message | ms (wall) | ms (CPU) |',
    '|---|---:|---:|',
    ...r.worstCase.messages.map((c) => `| ${c.name} | ${c.bestMs} | ${c.cpuMs} |`),
    '',
    `All within the bound: ${r.worstCase.withinBound ? 'yes' : 'NO'}.`,
    '',
  ].join('\n');
}

if (import.meta.main) {
  const result = (await run()) as { sms: { extract: Figures }; htmlEmail: { extract: Figures } };
  process.stdout.write(
    `extract: SMS ${result.sms.extract.medianPerSecond} msg/s, HTML email ${result.htmlEmail.extract.medianPerSecond} msg/s; see bench/results/extract.md\n`,
  );
}
