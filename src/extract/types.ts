/**
 * Public types of the extractor. Field names of the verdict (`otp_code`, `magic_link`,
 * `webauthn_required`) follow the wire format callers already use.
 */

export interface SmsMessage {
  /** Phone number, short code or alphanumeric sender id. Not used for extraction. */
  readonly from?: string;
  readonly text: string;
}

export interface EmailMessage {
  readonly from?: string;
  readonly subject?: string;
  /** Plain-text part. */
  readonly text?: string;
  /** HTML part. */
  readonly html?: string;
}

/** A code or link the extractor considered, with the evidence behind its score. */
export interface Alternative {
  readonly kind: 'otp_code' | 'magic_link';
  readonly value: string;
  /** 0..1; 0.5 is the acceptance threshold. */
  readonly score: number;
  readonly chosen: boolean;
  /** Signed evidence, strongest first, e.g. `+2.50 code label "code" before`. */
  readonly reasons: readonly string[];
}

export interface Extraction {
  readonly otp_code: string | null;
  readonly magic_link: string | null;
  readonly webauthn_required: boolean;
  /** 0..1: how sure the whole verdict is (including "there is no code / no link"). */
  readonly confidence: number;
  /** Ranked candidates: codes first, then links, each best first. */
  readonly alternatives: readonly Alternative[];
}

/** Alias used by dashboards. */
export type Verdict = Extraction;
