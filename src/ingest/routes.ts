/**
 * The HTTP ingest routes on the Fastify host: Twilio's webhook (when TWILIO_AUTH_TOKEN is set)
 * and the synthetic SMS endpoint. The SMTP listener is started separately (email/smtp.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { ChallengeDeps } from '../domain/context.ts';
import { syntheticSmsRoutes } from './sms/synthetic.ts';
import { twilioRoutes } from './sms/twilio.ts';

export async function registerIngest(server: FastifyInstance, config: Config, deps: ChallengeDeps) {
  await server.register(twilioRoutes(config, deps));
  await server.register(syntheticSmsRoutes(deps));
}
