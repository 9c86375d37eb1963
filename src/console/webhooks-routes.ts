/**
 * The console's webhook management (`{console_url}/webhooks`): list with recent deliveries, add
 * (through the same `createWebhookEndpoint` as every other face), send a test event, delete — for
 * the signed-in person's own account only. Forms are CSRF-protected; the secret appears only in
 * the answer to the creation.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withEm } from '../domain/context.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listDeliveries,
  listWebhookEndpoints,
  sendTestEvent,
} from '../domain/webhooks/endpoints.ts';
import type { User } from '../entities/user.ts';
import { isAppError } from '../errors/index.ts';
import { sendPage } from './html.ts';
import type { PageChrome } from './layout.ts';
import { webhooksPage } from './webhooks-page.ts';

const RECENT = 10;

export function webhookConsoleRoutes(prefix: string) {
  return async function webhooks(app: FastifyInstance) {
    const ctx = (request: FastifyRequest) => withEm(app.challenges, request.em);
    const chrome = (user: User, reply: FastifyReply): PageChrome => ({
      prefix,
      signedInAs: { email: user.email, csrf: reply.generateCsrf() },
      current: '/webhooks',
    });
    const signIn = (reply: FastifyReply) =>
      reply.redirect(`${prefix}/login?return_to=${encodeURIComponent(`${prefix}/webhooks`)}`, 303);

    const show = async (
      request: FastifyRequest,
      reply: FastifyReply,
      user: User,
      status: number,
      extra: { created?: { url: string; secret: string }; notice?: string; error?: string } = {},
    ) => {
      const endpoints = await listWebhookEndpoints(ctx(request), user.account.id);
      const withDeliveries = [];
      for (const endpoint of endpoints) {
        const { deliveries } = await listDeliveries(ctx(request), user.account.id, endpoint.id, {
          first: RECENT,
        });
        withDeliveries.push({ endpoint, deliveries });
      }
      return sendPage(
        reply,
        status,
        webhooksPage({
          chrome: chrome(user, reply),
          csrf: reply.generateCsrf(),
          endpoints: withDeliveries,
          ...extra,
        }),
      );
    };

    app.get('/webhooks', async (request, reply) => {
      if (!request.user) return signIn(reply);
      const sent = (request.query as { test_sent?: unknown }).test_sent === '1';
      return show(request, reply, request.user, 200, sent ? { notice: 'Test event queued.' } : {});
    });

    app.post('/webhooks', { preHandler: app.csrfProtection }, async (request, reply) => {
      const user = request.user;
      if (!user) return signIn(reply);
      const body = (request.body ?? {}) as { url?: unknown; events?: unknown };
      const events = body.events === undefined ? [] : [body.events].flat();
      try {
        const { endpoint, secret } = await createWebhookEndpoint(ctx(request), user.account.id, {
          url: typeof body.url === 'string' ? body.url : '',
          events: (events.length ? events : null) as never,
        });
        request.log.info({ endpointId: endpoint.id }, 'webhook endpoint added in the console');
        return show(request, reply, user, 201, { created: { url: endpoint.url, secret } });
      } catch (error) {
        if (isAppError(error) && error.status < 500) {
          return show(request, reply, user, error.status, { error: error.message });
        }
        throw error;
      }
    });

    app.post<{ Params: { id: string } }>(
      '/webhooks/:id/test',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const user = request.user;
        if (!user) return signIn(reply);
        await sendTestEvent(ctx(request), user.account.id, request.params.id);
        // Post/redirect/get: reloading the page must not send another test event.
        return reply.redirect(`${prefix}/webhooks?test_sent=1`, 303);
      },
    );

    app.post<{ Params: { id: string } }>(
      '/webhooks/:id/delete',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const user = request.user;
        if (!user) return signIn(reply);
        await deleteWebhookEndpoint(ctx(request), user.account.id, request.params.id);
        return reply.redirect(`${prefix}/webhooks`, 303);
      },
    );
  };
}
