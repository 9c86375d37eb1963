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
import { type Analysis, analyseEmail, analyseSms } from './analysis.ts';
import { chooseLink } from './choose-link.ts';
import { featuresOf, type Weights } from './learned/features.ts';
import { decide as learnedDecision, loadedWeights } from './learned/model.ts';
import type { EmailMessage, Extraction, SmsMessage } from './types.ts';
import { buildLearnedVerdict, buildVerdict, emptyVerdict } from './verdict.ts';
import { asksForWebAuthn } from './webauthn.ts';

export type { Alternative, EmailMessage, Extraction, SmsMessage, Verdict } from './types.ts';

/**
 * The rules read the message (analysis.ts); the learned scorer decides among their candidates
 * (learned/model.ts). Without its weights the rules decide alone, as they did before it.
 */
function decide(analysis: Analysis): Extraction {
  return decideWith(analysis, loadedWeights());
}

/**
 * The verdict on a reading with the given weights (null: the rules alone). For the training and
 * generalization benches, which judge scorers trained on part of the corpus.
 */
export function decideWith(analysis: Analysis, weights: Weights | null): Extraction {
  const { segments, codes, links } = analysis;
  const webauthn = asksForWebAuthn(segments);
  if (weights === null) {
    return buildVerdict(codes, links, chooseLink(links), webauthn, {
      codePurposeStated: analysis.codePurposeStated,
    });
  }
  return buildLearnedVerdict(
    codes,
    links,
    learnedDecision(featuresOf(analysis), weights),
    webauthn,
  );
}

/** Extract from an SMS: `{ from, text }`. */
export function extractFromSms(message: SmsMessage): Extraction {
  try {
    return decide(analyseSms(message));
  } catch {
    // Defensive: extraction must never take the ingest path down. No detail is logged on purpose.
    return emptyVerdict();
  }
}

/** Extract from an email: `{ from, subject, text, html }` (any part may be missing). */
export function extractFromEmail(message: EmailMessage): Extraction {
  try {
    return decide(analyseEmail(message));
  } catch {
    return emptyVerdict();
  }
}
