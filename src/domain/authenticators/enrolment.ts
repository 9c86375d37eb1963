/**
 * Reading an authenticator enrolment: the `otpauth://totp/…` URI behind an app's QR code, or a
 * base32 secret with its parameters. Parsing and code generation are otpauth's (RFC 4226/6238),
 * not ours; this module only decides what is accepted and names the field of every refusal.
 *
 * Accepted (decisions.md): TOTP only (an `otpauth://hotp/` URI is refused), `digits` 6–8,
 * `period` 15–120 s, `algorithm` SHA1, SHA256 or SHA512, a base32 secret of at least 80 bits
 * (RFC 4226 §4 asks for 128 and recommends 160; 80 is what many apps still issue).
 * The secret never appears in an error message.
 */
import * as OTPAuth from 'otpauth';
import { z } from 'zod';
import { type TotpAlgorithm, totpAlgorithms } from '../../entities/authenticator.ts';
import { AppError, validate } from '../../errors/index.ts';

export const MIN_SECRET_BYTES = 10;

export const createAuthenticatorInput = z.strictObject({
  target: z.string().trim().min(1).max(2048),
  otpauthUri: z.string().trim().min(1).max(4096).optional(),
  secret: z.string().trim().min(1).max(1024).optional(),
  digits: z.number().int().min(6).max(8).optional(),
  period: z.number().int().min(15).max(120).optional(),
  algorithm: z.enum(totpAlgorithms).optional(),
  label: z.string().trim().min(1).max(200).optional(),
  issuer: z.string().trim().min(1).max(200).optional(),
});
export type CreateAuthenticatorInput = z.input<typeof createAuthenticatorInput>;

export interface Enrolment {
  /** Canonical base32 (upper case, no padding or spaces). */
  secret: string;
  digits: number;
  period: number;
  algorithm: TotpAlgorithm;
  label: string | null;
  issuer: string | null;
}

const refuse = (field: string, message: string) =>
  new AppError('invalid_request', `${field}: ${message}`, { extra: { field } });

/** The enrolment described by the input, or `invalid_request` naming the field. */
export function readEnrolment(raw: CreateAuthenticatorInput): Enrolment {
  const input = validate(createAuthenticatorInput, raw);
  if (input.otpauthUri && input.secret) {
    throw refuse('secret', 'give either otpauth_uri or secret, not both');
  }
  if (input.otpauthUri) {
    for (const field of ['digits', 'period', 'algorithm', 'label', 'issuer'] as const) {
      if (input[field] !== undefined)
        throw refuse(field, 'comes from otpauth_uri; give it only with secret');
    }
    return fromUri(input.otpauthUri);
  }
  if (!input.secret) throw refuse('otpauth_uri', 'give otpauth_uri or secret');
  return {
    secret: base32Secret('secret', input.secret),
    digits: input.digits ?? 6,
    period: input.period ?? 30,
    algorithm: input.algorithm ?? 'SHA1',
    label: input.label ?? null,
    issuer: input.issuer ?? null,
  };
}

function fromUri(uri: string): Enrolment {
  if (/^otpauth:\/\/hotp\//i.test(uri)) {
    throw refuse(
      'otpauth_uri',
      'HOTP (counter-based) enrolments are not supported; give a TOTP one',
    );
  }
  if (!/^otpauth:\/\/totp\//i.test(uri)) {
    throw refuse('otpauth_uri', 'give an otpauth://totp/… URI');
  }
  let parsed: OTPAuth.HOTP | OTPAuth.TOTP;
  try {
    parsed = OTPAuth.URI.parse(uri);
  } catch (error) {
    // otpauth's messages name the parameter ("Missing or invalid 'secret' parameter"), never its value.
    const reason = error instanceof Error ? error.message : 'not a valid otpauth URI';
    throw refuse(
      'otpauth_uri',
      reason.replace(/^./, (c) => c.toLowerCase()),
    );
  }
  if (!(parsed instanceof OTPAuth.TOTP)) throw refuse('otpauth_uri', 'give a TOTP enrolment');
  if (parsed.digits < 6 || parsed.digits > 8) {
    throw refuse('otpauth_uri', 'digits must be 6, 7 or 8');
  }
  if (parsed.period < 15 || parsed.period > 120) {
    throw refuse('otpauth_uri', 'period must be 15 to 120 seconds');
  }
  const algorithm = parsed.algorithm.toUpperCase();
  if (!(totpAlgorithms as readonly string[]).includes(algorithm)) {
    throw refuse('otpauth_uri', 'algorithm must be SHA1, SHA256 or SHA512');
  }
  if (parsed.secret.bytes.length < MIN_SECRET_BYTES) {
    throw refuse('otpauth_uri', 'the secret is shorter than 80 bits');
  }
  return {
    secret: parsed.secret.base32,
    digits: parsed.digits,
    period: parsed.period,
    algorithm: algorithm as TotpAlgorithm,
    label: parsed.label ? parsed.label.slice(0, 200) : null,
    issuer: parsed.issuer ? parsed.issuer.slice(0, 200) : null,
  };
}

function base32Secret(field: string, value: string): string {
  const cleaned = value.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
  if (!/^[A-Z2-7]+$/.test(cleaned)) throw refuse(field, 'not base32 (A–Z and 2–7)');
  let secret: OTPAuth.Secret;
  try {
    secret = OTPAuth.Secret.fromBase32(cleaned);
  } catch {
    throw refuse(field, 'not base32 (A–Z and 2–7)');
  }
  if (secret.bytes.length < MIN_SECRET_BYTES) throw refuse(field, 'shorter than 80 bits');
  return secret.base32;
}

/** The code of the time step that contains `at` (otpauth's RFC 6238 generator). */
export function codeAt(enrolment: Omit<Enrolment, 'label' | 'issuer'>, at: Date): string {
  return new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(enrolment.secret),
    digits: enrolment.digits,
    period: enrolment.period,
    algorithm: enrolment.algorithm,
  }).generate({ timestamp: at.getTime() });
}
