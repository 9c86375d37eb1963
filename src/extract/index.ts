/**
 * OTP and magic-link extractor: public API.
 *
 * Given an SMS or an email received during a sign-in challenge, returns the one-time code a person
 * would type, the one link that signs in or verifies, whether a passkey/security key is asked for,
 * a confidence, and the ranked alternatives with the evidence behind each score.
 *
 * Invariants:
 * - independent of transport and storage: plain values in, plain values out;
 * - never throws, whatever the input (non-strings are treated as empty; oversized input is cut);
 * - never logs: no message body, code or link leaves this module except in the return value;
 * - deterministic and stateless (all tables are built once at load time).
 */
import { rankCodes, statesCodePurpose } from './choose-code.ts';
import { chooseLink, type LinkOccurrence, rankLinks } from './choose-link.ts';
import { readHtml } from './html.ts';
import { normalizeText } from './normalize.ts';
import { makeSegment, type Segment } from './segment.ts';
import { readSmsQuirks } from './sms-quirks.ts';
import type { EmailMessage, Extraction, SmsMessage } from './types.ts';
import { buildVerdict, emptyVerdict } from './verdict.ts';
import { asksForWebAuthn } from './webauthn.ts';

export type { Alternative, EmailMessage, Extraction, SmsMessage, Verdict } from './types.ts';

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

function decide(
  segments: readonly Segment[],
  links: readonly LinkOccurrence[],
  quirks?: { webOtpCode: string | null; retriever: boolean },
): Extraction {
  const inputs = {
    segments,
    webOtpCode: quirks?.webOtpCode ?? null,
    retriever: quirks?.retriever ?? false,
  };
  const codes = rankCodes(inputs);
  const rankedLinks = rankLinks(links);
  return buildVerdict(codes, rankedLinks, chooseLink(rankedLinks), asksForWebAuthn(segments), {
    codePurposeStated: statesCodePurpose(inputs),
  });
}

/** Extract from an SMS: `{ from, text }`. */
export function extractFromSms(message: SmsMessage): Extraction {
  try {
    const raw = asText((message as { text?: unknown } | null | undefined)?.text, MAX_SMS);
    const quirks = readSmsQuirks(normalizeText(raw));
    const seg = makeSegment('sms', quirks.text);
    return decide([seg], textLinks(seg), quirks);
  } catch {
    // Defensive: extraction must never take the ingest path down. No detail is logged on purpose.
    return emptyVerdict();
  }
}

/** Extract from an email: `{ from, subject, text, html }` (any part may be missing). */
export function extractFromEmail(message: EmailMessage): Extraction {
  try {
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
    return decide(segments, links);
  } catch {
    return emptyVerdict();
  }
}
