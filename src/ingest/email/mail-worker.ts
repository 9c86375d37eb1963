/**
 * One inbound email, read inside a worker thread of the mail reader's pool (mail-reader.ts):
 * MIME parsing (mailparser) and code/link extraction both run here, so a hostile message costs a
 * worker's time, never the event loop's.
 *
 * Invariants:
 * - the first thing the task does is post on `started`: the reader's budget counts the time this
 *   message runs, not the time it waited in the queue or a fresh worker spent loading modules;
 * - a message mailparser refuses (too many MIME parts, a broken stream) is reported as
 *   `unparseable` with mailparser's reason, never thrown: it is the sender's problem, answered with
 *   a permanent 554;
 * - nothing is logged here: no body, code or link leaves this module except in the return value;
 * - the worker thread runs at a lower CPU priority (nice WORKER_NICE) than the event loop's
 *   thread, so busy workers never crowd out `/healthz`, waits and SMS on a loaded machine.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { simpleParser } from 'mailparser';
import { type Extraction, extractFromEmail } from '../../extract/index.ts';

export interface MailTask {
  /** The whole RFC 5322 message as received (at most SMTP_MAX_MESSAGE_BYTES). */
  raw: Uint8Array;
  /** Told once, when the task starts running; transferred with the task. */
  started: MessagePort;
}

export type MailOutcome =
  | {
      kind: 'read';
      /** The first From address of the header, if any. */
      from: string | undefined;
      subject: string;
      messageId: string | undefined;
      extraction: Extraction;
    }
  | { kind: 'unparseable'; reason: string };

const WORKER_NICE = 10;

/**
 * Linux gives each thread its own id (`/proc/thread-self` names it) and `setpriority` on it
 * affects that thread alone, which is what piscina's `niceIncrement` does with a native addon.
 * Elsewhere this is skipped: the pool still works, only without the priority.
 */
function lowerThreadPriority() {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, WORKER_NICE);
  } catch {
    // Not Linux, or not permitted: run at normal priority.
  }
}
lowerThreadPriority();

/**
 * What mailparser is asked to skip: converting HTML to text (html-to-text took seconds, then threw,
 * on deeply nested markup; the extractor reads the HTML with its own bounded parser), turning
 * text into HTML and finding links in it (linkify-it, which backtracks on crafted text), and
 * inlining images. The extractor needs only the text and HTML parts as sent.
 */
const PARSE_OPTIONS = {
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
} as const;

export default async function readMail(task: MailTask): Promise<MailOutcome> {
  task.started.postMessage('started');
  task.started.close();
  let mail: Awaited<ReturnType<typeof simpleParser>>;
  try {
    const raw = Buffer.from(task.raw.buffer, task.raw.byteOffset, task.raw.byteLength);
    mail = await simpleParser(raw, PARSE_OPTIONS);
  } catch (error) {
    return {
      kind: 'unparseable',
      reason: String((error as Error)?.message ?? error).slice(0, 200),
    };
  }
  const from = mail.from?.value[0]?.address;
  const extraction = extractFromEmail({
    from: from ?? '',
    subject: mail.subject ?? '',
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : '',
  });
  return {
    kind: 'read',
    from,
    subject: mail.subject ?? '',
    messageId: mail.messageId,
    extraction,
  };
}
