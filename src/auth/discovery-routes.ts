/**
 * The protected-resource metadata (RFC 9728) and the agent guide (`agent_auth.skill`), served by
 * the API host. The guide is docs/agent-guide.md with `{base_url}` and `{console_url}` filled in,
 * so every URL in it is the one this deployment answers on; a test keeps it true to the metadata.
 * (The authorization-server metadata is oidc-provider's route, rewritten in provider.ts.)
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { paths, protectedResourceMetadata } from './metadata.ts';

const guideSource = readFileSync(new URL('../../docs/agent-guide.md', import.meta.url), 'utf8');

export function renderGuide(
  config: Pick<Config, 'publicBaseUrl' | 'consoleUrl' | 'eventsSchemaBase'>,
) {
  return guideSource
    .replaceAll('{base_url}', config.publicBaseUrl)
    .replaceAll('{console_url}', config.consoleUrl)
    .replaceAll('{events_schema_base}', config.eventsSchemaBase);
}

export function discoveryRoutes(config: Config) {
  const metadata = protectedResourceMetadata(config);
  const guide = renderGuide(config);
  return async function discovery(app: FastifyInstance) {
    app.get(paths.protectedResourceMetadata, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send(metadata),
    );
    app.get(paths.skill, async (_request, reply) =>
      reply
        .type('text/markdown; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(guide),
    );
  };
}
