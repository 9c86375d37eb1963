/**
 * The dashboard (`{console_url}/`, with `?agent=` and `?channel=` filters) and a session's page
 * (`{console_url}/sessions/:id`), for the signed-in person's own account only: another account's
 * session id is `not_found`, exactly like an unknown one.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { withEm } from '../domain/context.ts';
import { AppError } from '../errors/index.ts';
import {
  accountSession,
  activeSessions,
  actors,
  parseFilters,
  recentVerdicts,
  sessionMessages,
  sessionServedSteps,
} from './dashboard-data.ts';
import { dashboardPage, type LiveLinks, sessionPage } from './dashboard-page.ts';
import { sendPage } from './html.ts';
import type { PageChrome } from './layout.ts';
import { type DashboardNotice, notices, verifyRequest } from './pages.ts';

/** Form and query fields as strings; a repeated field is treated as absent. */
const fields = (query: unknown): Record<string, string | undefined> =>
  Object.fromEntries(
    Object.entries((query as Record<string, unknown>) ?? {}).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : undefined,
    ]),
  );

export function dashboardRoutes(config: Config) {
  const prefix = config.consolePath;
  const links: LiveLinks = {
    events: new URL('/graphql', config.publicBaseUrl).pathname,
    baseUrl: config.publicBaseUrl,
  };
  return async function dashboard(app: FastifyInstance) {
    const signIn = (request: FastifyRequest, reply: FastifyReply) =>
      reply.redirect(`${prefix}/login?return_to=${encodeURIComponent(request.url)}`, 303);
    const chrome = (request: FastifyRequest, reply: FastifyReply): PageChrome => ({
      prefix,
      signedInAs: { email: request.user!.email, csrf: reply.generateCsrf() },
    });
    const send = (reply: FastifyReply, body: string) => sendPage(reply, 200, body);

    app.get('/', async (request, reply) => {
      const user = request.user;
      if (!user) return signIn(request, reply);
      const query = fields(request.query);
      const filters = parseFilters(query);
      const ctx = withEm(app.challenges, request.em);
      const accountId = user.account.id;
      const csrf = reply.generateCsrf();
      const notice = query.notice;
      return send(
        reply,
        dashboardPage({
          chrome: chrome(request, reply),
          user,
          csrf,
          notice:
            notice === 'verification_sent' || notice === 'password_changed'
              ? notices[notice as DashboardNotice]
              : undefined,
          verifyRequest: verifyRequest({ prefix }, user, csrf),
          links,
          filters,
          actors: await actors(ctx, accountId),
          sessions: await activeSessions(ctx, accountId, filters),
          verdicts: await recentVerdicts(ctx, accountId, filters),
          now: ctx.clock(),
        }),
      );
    });

    app.get<{ Params: { id: string } }>('/sessions/:id', async (request, reply) => {
      const user = request.user;
      if (!user) return signIn(request, reply);
      const ctx = withEm(app.challenges, request.em);
      const session = await accountSession(ctx, user.account.id, request.params.id);
      if (!session) throw new AppError('not_found', 'There is no such session in your account.');
      const label = (await actors(ctx, user.account.id)).find((a) => a.id === session.agentId);
      return send(
        reply,
        sessionPage({
          chrome: chrome(request, reply),
          links,
          session,
          agent: label?.label ?? session.agentId,
          messages: await sessionMessages(ctx, session),
          served: await sessionServedSteps(ctx, session),
          now: ctx.clock(),
        }),
      );
    });
  };
}
