/**
 * The rules' reading of a message: its segments (normalised text, keyword hits, URLs), its code
 * candidates and its links, each scored from shape and context evidence and ranked best first
 * (choose-code.ts, choose-link.ts). The learned scorer (learned/model.ts) decides from this
 * reading; the training script reads messages through the same functions, so training and use
 * see identical candidates.
 */
import { rankCodes, type ScoredCode, statesCodePurpose } from './choose-code.ts';
import { type LinkOccurrence, rankLinks, type ScoredLink } from './choose-link.ts';
import { readHtml } from './html.ts';
import { normalizeText } from './normalize.ts';
import { makeSegment, type Segment } from './segment.ts';
import { readSmsQuirks } from './sms-quirks.ts';
import type { EmailMessage, SmsMessage } from './types.ts';

/** Real SMS top out near 1,600 characters and sign-in emails near a few dozen kB. */
const MAX_SMS = 10_000;
const MAX_SUBJECT = 2_000;
const MAX_TEXT_PART = 200_000;

function asText(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  return value.length > max ? value.slice(0, max) : value;
}

function textLinks(seg: Segment): LinkOccurrence[] {
  return seg.urls.map((u) => ({ url: u.url, segment: seg, start: u.start, end: u.end }));
}

/** What the rules make of a message: its segments, and its codes and links ranked best first. */
export interface Analysis {
  readonly segments: readonly Segment[];
  readonly codes: readonly ScoredCode[];
  readonly links: readonly ScoredLink[];
  readonly codePurposeStated: boolean;
}

function analyse(
  segments: readonly Segment[],
  links: readonly LinkOccurrence[],
  quirks?: { webOtpCode: string | null; retriever: boolean },
): Analysis {
  const inputs = {
    segments,
    webOtpCode: quirks?.webOtpCode ?? null,
    retriever: quirks?.retriever ?? false,
  };
  return {
    segments,
    codes: rankCodes(inputs),
    links: rankLinks(links),
    codePurposeStated: statesCodePurpose(inputs),
  };
}

/** The rules' reading of an SMS (what `extractFromSms` decides from). */
export function analyseSms(message: SmsMessage): Analysis {
  const raw = asText((message as { text?: unknown } | null | undefined)?.text, MAX_SMS);
  const quirks = readSmsQuirks(normalizeText(raw));
  const seg = makeSegment('sms', quirks.text);
  return analyse([seg], textLinks(seg), quirks);
}

/** The rules' reading of an email (what `extractFromEmail` decides from). */
export function analyseEmail(message: EmailMessage): Analysis {
  const m = (message ?? {}) as Record<string, unknown>;
  const segments: Segment[] = [];
  const links: LinkOccurrence[] = [];
  const subject = asText(m.subject, MAX_SUBJECT);
  if (subject.trim() !== '') segments.push(makeSegment('subject', normalizeText(subject)));
  const text = asText(m.text, MAX_TEXT_PART);
  if (text.trim() !== '') {
    const seg = makeSegment('text', normalizeText(text));
    segments.push(seg);
    links.push(...textLinks(seg));
  }
  const html = typeof m.html === 'string' ? m.html : '';
  if (html.trim() !== '') {
    const view = readHtml(html);
    const seg = makeSegment('html', view.text);
    segments.push(seg);
    for (const a of view.anchors)
      links.push({ url: a.href, segment: seg, start: a.start, end: a.end, anchor: a });
    // URLs shown as plain text in the HTML but not linked.
    for (const u of seg.urls) {
      if (!view.anchors.some((a) => a.start <= u.start && a.end >= u.end)) {
        links.push({ url: u.url, segment: seg, start: u.start, end: u.end });
      }
    }
  }
  return analyse(segments, links);
}
