/**
 * Verifies a webhook delivery as Standard Webhooks specifies (https://www.standardwebhooks.com):
 * the signature is HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}` with the
 * endpoint's secret (`whsec_` + base64), sent as space-separated `v1,<base64>` entries. The
 * timestamp must be within five minutes of now, so a captured delivery cannot be replayed later.
 * node:crypto only: the SDK has no runtime dependencies.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { LatchkeyError } from './errors.ts';

const toleranceSeconds = 5 * 60;

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function')
    return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : (value as string);
  }
  return undefined;
}

const refuse = (detail: string) =>
  new LatchkeyError(`Webhook verification failed: ${detail}`, {
    status: 0,
    code: 'webhook_verification_failed',
    detail,
  });

/**
 * Returns the parsed payload of a genuine delivery; throws `LatchkeyError` with code
 * `webhook_verification_failed` otherwise. Pass the raw body exactly as received.
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: HeaderBag,
  secret: string,
  now: Date = new Date(),
): unknown {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw refuse('missing webhook-id, webhook-timestamp or webhook-signature');
  const sentAt = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(now.getTime() / 1000 - sentAt) > toleranceSeconds) {
    throw refuse('timestamp outside the 5 minute tolerance');
  }
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${text}`).digest();
  const match = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!match) throw refuse('no matching signature');
  return JSON.parse(text);
}
