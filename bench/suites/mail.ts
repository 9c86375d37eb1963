/**
 * Benchmark: event-loop delay while hostile inbound email is read (issue 11).
 *
 * The same hostile messages (190,000 nested `<div>`; a paren bomb: forty URLs each followed by
 * 4,000 `)`, in the text and the HTML; 1,100 MIME parts) plus one ordinary message are read three
 * ways, measured in the same run, each with `perf_hooks.monitorEventLoopDelay` (10 ms resolution)
 * running while the messages are in flight:
 * - baseline A, inline as main did: mailparser with its HTML-to-text conversion, then the
 *   extractor, on the event loop (the extractor is today's, already linear, so this flatters main);
 * - baseline B, inline with today's parse options (no HTML-to-text), still on the event loop;
 * - after: the mail reader's worker pool (src/ingest/email/mail-reader.ts), 2 s budget.
 * The event loop's worst delay is what `/healthz`, every wait and every other verdict would see.
 * Writes bench/results/mail.json and bench/results/mail.md (project root as cwd).
 * Run: `node bench/suites/mail.ts` or `npm run bench -- mail`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { extractFromEmail } from '../../src/extract/index.ts';
import { MailReader } from '../../src/ingest/email/mail-reader.ts';

interface Run {
  readonly label: string;
  readonly wallMs: number;
  readonly loopMaxMs: number;
  readonly loopP99Ms: number;
  readonly loopMeanMs: number;
  /** Per message: the code found, or what happened instead. */
  readonly outcomes: Record<string, string>;
}

const PARENS = Array.from(
  { length: 40 },
  (_, i) => `https://acme.example/l/${i}${')'.repeat(4000)}`,
).join(' ');

const compose = (mail: Mail.Options): Promise<Buffer> =>
  new MailComposer({ from: 'attacker@evil.example', to: 'x@inbox.localhost', ...mail })
    .compile()
    .build();

async function messages(): Promise<Record<string, Buffer>> {
  const parts = Array.from(
    { length: 1100 },
    (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`,
  ).join('');
  return {
    'nested div ×190,000': await compose({
      subject: 'Your Acme code',
      html: `<p>Your Acme code is 482913</p>${'<div>'.repeat(190_000)}`,
    }),
    'paren bomb': await compose({
      subject: 'Your Acme code is 660155',
      text: PARENS,
      html: `<p>${PARENS}</p>`,
    }),
    '1,100 MIME parts': Buffer.from(
      `From: a@acme.example\r\nSubject: parts\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${parts}--b--\r\n`,
    ),
    ordinary: await compose({
      subject: 'Your Acme verification code',
      text: 'Your verification code is 583920.',
    }),
  };
}

async function inline(raw: Buffer, htmlToText: boolean): Promise<string> {
  try {
    const mail = await simpleParser(raw, {
      skipImageLinks: true,
      skipTextToHtml: true,
      skipHtmlToText: !htmlToText,
    });
    const v = extractFromEmail({
      subject: mail.subject ?? '',
      text: mail.text ?? '',
      html: typeof mail.html === 'string' ? mail.html : '',
    });
    return v.otp_code ?? 'no code';
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

/** Reads every message concurrently with `read`, watching the event loop meanwhile. */
async function measure(
  label: string,
  all: Record<string, Buffer>,
  read: (raw: Buffer) => Promise<string>,
): Promise<Run> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  // Let the monitor take a first sample before the work starts.
  await new Promise((resolve) => setTimeout(resolve, 50));
  loop.enable();
  const started = performance.now();
  const names = Object.keys(all);
  const results = await Promise.all(names.map((name) => read(all[name]!)));
  const wallMs = performance.now() - started;
  // One more turn so a delay that ended with the work is recorded.
  await new Promise((resolve) => setTimeout(resolve, 20));
  loop.disable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  return {
    label,
    wallMs: Math.round(wallMs),
    loopMaxMs: ms(loop.max),
    loopP99Ms: ms(loop.percentile(99)),
    loopMeanMs: ms(loop.mean),
    outcomes: Object.fromEntries(names.map((name, i) => [name, results[i]!])),
  };
}

const all = await messages();
const silent = { info() {}, warn() {}, error() {} };
const reader = new MailReader({ budgetMs: 2000, log: silent });
await reader.warmUp();
const runs: Run[] = [];
runs.push(
  await measure('A: inline, as main (mailparser HTML→text, then extract)', all, (raw) =>
    inline(raw, true),
  ),
);
runs.push(await measure("B: inline, today's parse options", all, (raw) => inline(raw, false)));
runs.push(
  await measure(`after: worker pool (${reader.threads} threads, 2 s budget)`, all, async (raw) => {
    const outcome = await reader.read(raw);
    if (outcome.kind === 'read') return outcome.extraction.otp_code ?? 'no code';
    return outcome.kind;
  }),
);
await reader.close();

const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
  messageBytes: Object.fromEntries(Object.entries(all).map(([name, raw]) => [name, raw.length])),
  runs,
};
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/mail.json', `${JSON.stringify(result, null, 2)}\n`);
const after = runs[2]!;
const lines = [
  '# Benchmark: mail (event-loop delay while hostile email is read)',
  '',
  `${result.date} · Node ${result.node} · ${result.cpu} · ${result.cores} cores`,
  '',
  `Messages (bytes as sent): ${Object.entries(result.messageBytes)
    .map(([name, bytes]) => `${name} ${bytes.toLocaleString('en')}`)
    .join(
      ', ',
    )}. All four are read concurrently; perf_hooks.monitorEventLoopDelay (10 ms resolution) runs meanwhile.`,
  '',
  '| how | wall ms | loop delay max ms | p99 ms | mean ms | outcomes |',
  '|---|---:|---:|---:|---:|---|',
  ...runs.map(
    (r) =>
      `| ${r.label} | ${r.wallMs} | ${r.loopMaxMs} | ${r.loopP99Ms} | ${r.loopMeanMs} | ${Object.entries(
        r.outcomes,
      )
        .map(([name, outcome]) => `${name}: ${outcome}`)
        .join('; ')} |`,
  ),
  '',
  `Worst event-loop delay: ${runs[0]!.loopMaxMs} ms inline as main, ${runs[1]!.loopMaxMs} ms inline with today's options, ${after.loopMaxMs} ms with the worker pool (the contract: /healthz within 200 ms).`,
  '',
];
writeFileSync('bench/results/mail.md', lines.join('\n'));
process.stdout.write(
  `mail: worst loop delay inline ${runs[0]!.loopMaxMs} ms / ${runs[1]!.loopMaxMs} ms, pool ${after.loopMaxMs} ms; see bench/results/mail.md\n`,
);
