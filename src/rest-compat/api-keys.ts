/**
 * `/v1/api-keys` (scope `keys:manage`): list, create (the secret is in the 201 response once and
 * never again) and delete the live API keys of the caller's account. Bodies are the caller's own
 * account only: another account's key id is simply `404 not_found`.
 *
 * Created keys may carry only scopes the caller holds (an agent cannot widen its own grant);
 * without `scopes`, a key gets the caller's scopes. Errors are problem+json (the host's handler).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createApiKey, deleteApiKey, listApiKeys, viewOf } from '../auth/api-keys.ts';
import { requireScope } from '../auth/credentials.ts';
import { scopes } from '../auth/principal.ts';
import { AppError, validate } from '../errors/index.ts';

const createBody = z.strictObject({
  name: z.string().max(100).optional(),
  scopes: z
    .array(z.enum(scopes))
    .max(scopes.length * 2)
    .optional(),
});

export async function apiKeyRoutes(app: FastifyInstance) {
  const manage = { preHandler: requireScope('keys:manage') };

  app.get('/v1/api-keys', manage, async (request) => {
    const principal = request.principal!;
    const keys = await listApiKeys(request.em, principal.accountId);
    return { api_keys: keys.map(viewOf) };
  });

  app.post('/v1/api-keys', manage, async (request, reply) => {
    const principal = request.principal!;
    const body = validate(createBody, request.body ?? {});
    const { key, secret } = await createApiKey(
      request.em,
      {
        accountId: principal.accountId,
        name: body.name ?? 'API key',
        scopes: body.scopes ?? [...principal.scopes],
        createdBy: principal.credentialId,
      },
      principal.scopes,
    );
    request.log.info({ keyId: key.id }, 'api key created');
    return reply
      .status(201)
      .header('cache-control', 'no-store')
      .send({ ...viewOf(key), key: secret });
  });

  app.delete<{ Params: { id: string } }>('/v1/api-keys/:id', manage, async (request, reply) => {
    const principal = request.principal!;
    if (!(await deleteApiKey(request.em, principal.accountId, request.params.id))) {
      throw new AppError('not_found', 'No such API key');
    }
    request.log.info({ keyId: request.params.id }, 'api key deleted');
    return reply.status(204).send();
  });
}
