/**
 * Twilio's inbound-messaging webhook: `POST /ingest/sms/twilio`, enabled by TWILIO_AUTH_TOKEN.
 *
 * The `X-Twilio-Signature` is checked with Twilio's own library (`validateRequest`: HMAC-SHA1 of
 * the full URL Twilio called and the sorted form parameters) before anything is read or stored:
 * a bad or missing signature is `403` and nothing is written. The URL is PUBLIC_BASE_URL + the
 * request's raw path and query string exactly as received, so a webhook configured with a query
 * string (`…/ingest/sms/twilio?tenant=a`) verifies, and a signature made without it does not.
 *
 * Hostile input never reaches the database as a crash: Twilio posts forms, so another content type
 * is `415`; a repeated field or a NUL or control character in an identifier (MessageSid, From,
 * To) is `400` naming the field. Any form content is answered `200` or `4xx`, never `5xx` (a
 * fast-check fuzz in test/ingest/sms/twilio-hostile.test.ts holds us to it). The body text may
 * hold anything: it is sealed as bytes and only scanned for a code.
 * The TwiML acknowledgement (`200 text/xml <Response></Response>`) is sent only after the message
 * is committed, so a message Twilio was told we have is durably ours; Twilio retries anything
 * else. A repeated `MessageSid` is acknowledged again and stored once.
 */
import type { FastifyInstance } from 'fastify';
import twilioWebhooks from 'twilio/lib/webhooks/webhooks.js';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { type ChallengeDeps, withEm } from '../../domain/context.ts';
import { receiveMessage } from '../../domain/messages/receive.ts';
import { AppError, validate } from '../../errors/index.ts';
import { extractFromSms } from '../../extract/index.ts';

export const TWILIO_PATH = '/ingest/sms/twilio';
const TWIML_ACK = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** An identifier from Twilio: printable text (PostgreSQL text cannot hold NUL; no control bytes). */
const identifier = z
  .string()
  .min(1)
  .max(64)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain NUL or control characters');

const inboundSms = z.object({
  MessageSid: identifier,
  From: identifier,
  To: identifier,
  Body: z.string().max(10_000).default(''),
});

/** Twilio's check, where a malformed URL or parameter is a mismatch rather than a crash. */
function signatureHolds(token: string, signature: unknown, url: string, params: unknown) {
  if (typeof signature !== 'string' || typeof params !== 'object' || params === null) return false;
  try {
    return twilioWebhooks.validateRequest(token, signature, url, params as Record<string, unknown>);
  } catch {
    return false;
  }
}

export function twilioRoutes(
  config: Pick<Config, 'twilioAuthToken' | 'publicBaseUrl'>,
  deps: ChallengeDeps,
) {
  const authToken = config.twilioAuthToken;
  return async function registerTwilio(server: FastifyInstance) {
    if (!authToken) return;
    server.post(TWILIO_PATH, async (request, reply) => {
      if (request.body !== undefined && !isForm(request.headers['content-type'])) {
        throw new AppError('unsupported_media_type', 'Twilio webhooks are form-encoded');
      }
      // The URL Twilio called: the configured origin (and any path prefix a proxy strips) plus
      // the path and query string as they arrived, undecoded.
      const signedUrl = config.publicBaseUrl + request.url;
      const params = request.body ?? {};
      if (!signatureHolds(authToken, request.headers['x-twilio-signature'], signedUrl, params)) {
        throw new AppError('forbidden', 'The Twilio signature is missing or does not match');
      }
      const sms = validate(inboundSms, params);
      await receiveMessage(withEm(deps, request.em), {
        medium: 'sms',
        carrier: 'twilio',
        to: sms.To,
        from: sms.From,
        raw: Buffer.from(sms.Body, 'utf8'),
        extraction: extractFromSms({ from: sms.From, text: sms.Body }),
        externalId: sms.MessageSid,
      });
      return reply.status(200).type('text/xml').send(TWIML_ACK);
    });
  };
}

const isForm = (contentType: string | undefined) =>
  contentType?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
