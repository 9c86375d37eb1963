/**
 * Twilio's inbound-messaging webhook: `POST /ingest/sms/twilio`, enabled by TWILIO_AUTH_TOKEN.
 *
 * The `X-Twilio-Signature` is checked with Twilio's own library (`validateRequest`: HMAC-SHA1 of
 * the URL Twilio was configured with, PUBLIC_BASE_URL + the path, and the sorted form parameters)
 * before anything is read or stored: a bad or missing signature is `403` and nothing is written.
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

export const TWILIO_PATH = '/ingest/sms/twilio';
const TWIML_ACK = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

const inboundSms = z.object({
  MessageSid: z.string().min(1).max(64),
  From: z.string().min(1).max(64),
  To: z.string().min(1).max(64),
  Body: z.string().max(10_000).default(''),
});

export function twilioRoutes(
  config: Pick<Config, 'twilioAuthToken' | 'publicBaseUrl'>,
  deps: ChallengeDeps,
) {
  const authToken = config.twilioAuthToken;
  const signedUrl = config.publicBaseUrl + TWILIO_PATH;
  return async function registerTwilio(server: FastifyInstance) {
    if (!authToken) return;
    server.post(TWILIO_PATH, async (request, reply) => {
      const signature = request.headers['x-twilio-signature'];
      const params = (request.body ?? {}) as Record<string, unknown>;
      if (
        typeof signature !== 'string' ||
        typeof params !== 'object' ||
        !twilioWebhooks.validateRequest(authToken, signature, signedUrl, params)
      ) {
        throw new AppError('forbidden', 'The Twilio signature is missing or does not match');
      }
      const sms = validate(inboundSms, params);
      await receiveMessage(withEm(deps, request.em), {
        medium: 'sms',
        carrier: 'twilio',
        to: sms.To,
        from: sms.From,
        text: sms.Body,
        raw: Buffer.from(sms.Body, 'utf8'),
        externalId: sms.MessageSid,
      });
      return reply.status(200).type('text/xml').send(TWIML_ACK);
    });
  };
}
