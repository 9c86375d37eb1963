/**
 * Shape of a per-language keyword table.
 *
 * Every language is DATA, never code: the extractor merges all tables into one keyword matcher and
 * never asks which language a message is in (messages mix languages, brands and scripts).
 * Invariants:
 * - Words are written naturally (accents, any case); they are normalised and folded on load.
 * - A `*` at either end lets the word continue into more letters on that side (stems such as
 *   `verif*`, compound tails such as `*code` for German `Sicherheitscode`). Without `*`, words in
 *   Latin, Greek and Cyrillic script must stand alone; words in other scripts match anywhere,
 *   since those scripts attach particles or do not use spaces.
 * - When one match lies inside a longer match (`code` inside `promo code`), only the longer one
 *   counts, so phrases override their parts.
 */

export interface LanguageTable {
  /** BCP-47 primary tag, for reports only. */
  readonly lang: string;
  /** Labels that name a one-time code: "code", "OTP", "passcode", "验证码". */
  readonly code: readonly string[];
  /** Verbs asking the reader to type or use something: "enter", "type", "use". */
  readonly enter: readonly string[];
  /** Sign-in and verification words: "sign in", "log in", "verify", "confirm". */
  readonly auth: readonly string[];
  /** Words that point at a link or button: "click", "tap", "link", "button". */
  readonly click: readonly string[];
  /** Warnings about codes ("never share", "will never ask"); code labels after them count less. */
  readonly warning: readonly string[];
  /** Notices that carry no code or link to use: "new sign-in", "passkey was added". */
  readonly alert: readonly string[];
  /**
   * Words joining a subject to the value it names: "your code IS 4820", "Ihre TAN LAUTET 4820",
   * "رمزك هو 4820". Optional: languages that glue the link to the label need none.
   */
  readonly copula?: readonly string[];
  /**
   * Marketing words: "promo code", "discount", "sale", "% off", referral and invite codes; and
   * words of codes used in person ("show code", "at the counter", "to the driver"): neither kind
   * is typed to sign in, and both switch the same message-level rules on.
   */
  readonly promo: readonly string[];
  /** Labels of numbers that are not codes: order, tracking, booking, account, card, policy, ending. */
  readonly reference: readonly string[];
  /** Phone labels: "call", "phone", "tel". */
  readonly phone: readonly string[];
  /** Money words and currency names: "amount", "balance", "total", "euros". */
  readonly money: readonly string[];
  /** Units written next to a number: minutes, seconds, hours, days, points, items. */
  readonly units: readonly string[];
  /** Month and weekday names. */
  readonly dates: readonly string[];
  /** Address words: street, suite, ZIP / postal code. */
  readonly address: readonly string[];
  /** Texts of links that never sign in: unsubscribe, privacy, help, view in browser, track order. */
  readonly avoid: readonly string[];
  /** ASCII words that appear in sign-in or verification URL paths in this language. */
  readonly urlWords: readonly string[];
  /** Passkey and security-key words. */
  readonly webauthn: readonly string[];
}

/** Keyword classes the matcher reports, one per list in a table (urlWords is matched separately). */
export type KeywordClass = Exclude<keyof LanguageTable, 'lang' | 'urlWords'>;

export const KEYWORD_CLASSES: readonly KeywordClass[] = [
  'code',
  'enter',
  'auth',
  'click',
  'warning',
  'alert',
  'copula',
  'promo',
  'reference',
  'phone',
  'money',
  'units',
  'dates',
  'address',
  'avoid',
  'webauthn',
];
