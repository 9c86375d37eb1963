/**
 * The console's agents routes: list the account's agents and disconnect one. Disconnecting
 * revokes the registration, its tokens and its whole key lineage in one transaction, then
 * announces it, so the agent's open subscriptions, streams and waits end on every instance
 * (src/auth/revocation.ts). Another account's agent id is `not_found`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { announceRevocation } from '../auth/revocation.ts';
import { revokeRegistration } from '../domain/agents/registrations.ts';
import { AgentRegistration } from '../entities/agent-registration.ts';
import type { User } from '../entities/user.ts';
import { AppError } from '../errors/index.ts';
import { agentsPage } from './agents-page.ts';

export function agentConsoleRoutes(prefix: string, baseUrl: string) {
  return async function agents(app: FastifyInstance) {
    const signIn = (reply: FastifyReply) =>
      reply.redirect(`${prefix}/login?return_to=${encodeURIComponent(`${prefix}/agents`)}`, 303);

    const show = async (
      request: FastifyRequest,
      reply: FastifyReply,
      user: User,
      notice?: string,
    ) => {
      const agents = await request.em.find(
        AgentRegistration,
        { account: user.account.id, status: { $in: ['claimed', 'revoked'] } },
        { orderBy: { createdAt: 'desc', id: 'asc' }, limit: 500 },
      );
      // The keys of each agent's lineage (api_key.registration_id), so the person sees what a
      // Disconnect will take with it.
      const minted = await request.em.execute<
        { id: string; name: string; hint: string; registration_id: string }[]
      >(
        `select id, name, hint, registration_id from api_key
         where account_id = ? and registration_id is not null order by created_at, id`,
        [user.account.id],
      );
      const keys = new Map<string, { id: string; name: string; hint: string }[]>();
      for (const key of minted) {
        const list = keys.get(key.registration_id) ?? [];
        list.push({ id: key.id, name: key.name, hint: key.hint });
        keys.set(key.registration_id, list);
      }
      return reply
        .status(200)
        .type('text/html; charset=utf-8')
        .send(
          agentsPage({
            chrome: { prefix, signedInAs: { email: user.email, csrf: reply.generateCsrf() } },
            csrf: reply.generateCsrf(),
            agents,
            keys,
            baseUrl,
            ...(notice ? { notice } : {}),
          }),
        );
    };

    app.get('/agents', async (request, reply) => {
      if (!request.user) return signIn(reply);
      return show(request, reply, request.user);
    });

    app.post<{ Params: { id: string } }>(
      '/agents/:id/disconnect',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const user = request.user;
        if (!user) return signIn(reply);
        const revoked = await revokeRegistration(
          { em: request.em, clock: request.server.agentAuth.clock },
          request.params.id,
          user.account.id,
        );
        if (!revoked) throw new AppError('not_found', 'No such connected agent');
        await announceRevocation(request.server.challenges.events, revoked, request.log);
        request.log.info(
          { registrationId: request.params.id },
          'agent disconnected in the console',
        );
        return show(request, reply, user, 'Agent disconnected.');
      },
    );
  };
}
