/**
 * SMS conventions that carry a code without words around it.
 *
 * - WebOTP (origin-bound one-time codes): a last line `@example.com #123456` (optionally followed
 *   by ` @embedder.example`) states the code outright.
 * - Android SMS Retriever: a `<#>` prefix and an 11-character app hash on the last line. The hash
 *   is random base64 that must never be read as a code; both markers show the message exists to
 *   deliver a code.
 * The quirk lines are removed from the text handed to the general scanner, so the hash cannot be
 * split into code-shaped pieces and the `#` of WebOTP is not read as an order-number sign.
 */

export interface SmsQuirks {
  /** The text without the quirk lines and prefix. */
  readonly text: string;
  /** Code given by a WebOTP line, as written. */
  readonly webOtpCode: string | null;
  /** `<#>` prefix or app hash present: the sender wants a code auto-filled. */
  readonly retriever: boolean;
}

const WEB_OTP = /^@([A-Za-z0-9.-]+\.[A-Za-z]{2,}) #([A-Za-z0-9-]{4,12})(?: @[A-Za-z0-9.-]+)?$/;
const APP_HASH = /^[A-Za-z0-9+/]{11}$/;
const TRAILING_HASH = /[ \t]+([A-Za-z0-9+/]{11})[ \t]*$/;

export function readSmsQuirks(text: string): SmsQuirks {
  let body = text;
  let webOtpCode: string | null = null;
  const trimmedStart = body.trimStart();
  const prefixed = trimmedStart.startsWith('<#>');
  let retriever = prefixed;
  if (prefixed) body = trimmedStart.slice(3);
  const lines = body.split('\n');
  // Only the last non-empty lines can be quirk lines; both may appear (hash, then WebOTP).
  for (let pass = 0; pass < 2; pass += 1) {
    const last = lastFilled(lines);
    if (last <= 0) break;
    const line = lines[last]!.trim();
    const web = WEB_OTP.exec(line);
    if (web !== null && webOtpCode === null) {
      webOtpCode = web[2]!;
      lines.length = last;
      continue;
    }
    if (APP_HASH.test(line) && hashLike(line)) {
      retriever = true;
      lines.length = last;
      continue;
    }
    break;
  }
  // The hash may also end the code's own line (`<#> Your code is: 123ABC78 FA+9qCX9VSu`): after a
  // `<#>` prefix, an 11-character hash that ends the message is dropped from that line too.
  if (prefixed && webOtpCode === null) {
    const last = lastFilled(lines);
    const tail = TRAILING_HASH.exec(lines[last]!);
    if (tail !== null && hashLike(tail[1]!)) lines[last] = lines[last]!.slice(0, tail.index);
  }
  return { text: lines.join('\n'), webOtpCode, retriever };
}

/** The index of the last line with something on it (0 when only the first has). */
function lastFilled(lines: readonly string[]): number {
  let last = lines.length - 1;
  while (last > 0 && lines[last]!.trim() === '') last -= 1;
  return last;
}

/** Base64 of an app hash mixes letters with digits or `+` `/` (a word alone is not one). */
const hashLike = (token: string) => /[0-9+/]/.test(token) && /[A-Za-z]/.test(token);
