/**
 * The learned scorer (src/extract/learned/, issue 18): its committed weights are exactly what the
 * training script makes of the corpus, it never trains on a blind set, it loads safely, and its
 * decisions keep the rules' hard facts (a link without a one-time token is never the link).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { BLIND_SPLITS, TRAINING_SPLITS } from '../../bench/lib/corpus.ts';
import { trainedWeightsFile } from '../../scripts/train-extractor.ts';
import { analyseSms } from '../../src/extract/analysis.ts';
import { decideWith, extractFromEmail, extractFromSms } from '../../src/extract/index.ts';
import { featuresOf } from '../../src/extract/learned/features.ts';
import {
  CODE_THRESHOLD,
  decide,
  decodeWeights,
  encodeWeights,
  loadedWeights,
} from '../../src/extract/learned/model.ts';

const WEIGHTS = new URL('../../src/extract/learned/weights.bin', import.meta.url);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('the committed weights', () => {
  test('are exactly what scripts/train-extractor.ts makes of the training corpus', () => {
    // Deterministic training (seeded order, IEEE arithmetic): a stale or hand-edited file fails.
    expect(sha256(trainedWeightsFile())).toBe(sha256(readFileSync(WEIGHTS)));
  }, 240_000);

  test('are trained on no blind set', () => {
    expect(BLIND_SPLITS.filter((s) => (TRAINING_SPLITS as readonly string[]).includes(s))).toEqual(
      [],
    );
  });

  test('load, and survive an encode/decode round trip within float16 precision', () => {
    const weights = loadedWeights();
    expect(weights).not.toBeNull();
    const again = decodeWeights(encodeWeights(weights!))!;
    expect(again.code).toEqual(weights!.code);
    expect(again.link).toEqual(weights!.link);
  });

  test('a truncated or foreign file is refused, and the rules then decide alone', () => {
    const bytes = readFileSync(WEIGHTS);
    expect(decodeWeights(bytes.subarray(0, 1000))).toBeNull();
    const foreign = Uint8Array.from(bytes);
    foreign.set([0x50, 0x4b, 0x03, 0x04], 0);
    expect(decodeWeights(foreign)).toBeNull();
    const analysis = analyseSms({ text: 'Your Acme verification code is 482913.' });
    expect(decideWith(analysis, null).otp_code).toBe('482913');
  });
});

describe('decisions', () => {
  test('a code is given only from the threshold up, and its score is its probability', () => {
    const v = extractFromSms({ text: 'Orvo: 604913 is your verification code. Valid 10 min.' });
    expect(v.otp_code).toBe('604913');
    const chosen = v.alternatives.find((a) => a.chosen)!;
    expect(chosen.score).toBeGreaterThanOrEqual(CODE_THRESHOLD);
    const none = extractFromSms({ text: 'Your table for 4 is ready. Ticket 5512.' });
    expect(none.otp_code).toBeNull();
    for (const a of none.alternatives.filter((x) => x.kind === 'otp_code')) {
      expect(a.score).toBeLessThan(CODE_THRESHOLD);
    }
  });

  test('a link without a one-time token is never chosen, however the message vouches for it', () => {
    const html = `<p>Sign in to your account to finish verifying your email.</p>
      <p><a href="https://shop.example/account/sign-in" style="background:#06c;padding:12px">Sign in and verify</a></p>`;
    const v = extractFromEmail({ subject: 'Verify your email to sign in', html });
    expect(v.magic_link).toBeNull();
    const scored = featuresOf(analyseSms({ text: 'Log in: https://shop.example/login' }));
    const decision = decide(scored, loadedWeights()!);
    expect(decision.links.every((l) => l.vetoed && l.probability === 0)).toBe(true);
  });

  test('the same message always gets the same verdict', () => {
    const text =
      'Banco Albero: tu código para confirmar la transferencia es 338021. Ref. TR8Q2ZK4.';
    expect(extractFromSms({ text })).toEqual(extractFromSms({ text }));
  });
});
