/**
 * The console's usage routes: the page (`?period=YYYY-MM`, default this UTC month), the plan
 * change (CSRF-protected, verified email only, see src/domain/usage/plan.ts) and the CSV
 * statement, always for the signed-in person's own account.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import type { Config } from '../config.ts';
import { withEm } from '../domain/context.ts';
import { changePlan, planState } from '../domain/usage/plan.ts';
import { usageSummary } from '../domain/usage/queries.ts';
import { dailyUsage, statementCsv, statementLines } from '../domain/usage/statement.ts';
import type { User } from '../entities/user.ts';
import { AppError, isAppError } from '../errors/index.ts';
import { planName } from './dashboard-page.ts';
import { usagePage } from './usage-page.ts';

/** The account as the usage queries' caller: the signed-in person reads their own account. */
const reader = (user: User): Principal => ({
  kind: 'console',
  accountId: user.account.id,
  credentialId: user.id,
  agentId: user.id,
  scopes: new Set(['usage:read']),
});

function period(query: unknown, now: Date): string {
  const value = (query as { period?: unknown } | undefined)?.period;
  if (value === undefined) return now.toISOString().slice(0, 7);
  if (typeof value !== 'string' || !/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) {
    throw new AppError('invalid_request', 'period must be a month, YYYY-MM', {
      extra: { field: 'period' },
    });
  }
  return value;
}

export function usageConsoleRoutes(config: Config) {
  const prefix = config.consolePath;
  return async function usage(app: FastifyInstance) {
    const signIn = (reply: FastifyReply) =>
      reply.redirect(`${prefix}/login?return_to=${encodeURIComponent(`${prefix}/usage`)}`, 303);

    const show = async (
      request: FastifyRequest,
      reply: FastifyReply,
      user: User,
      status: number,
      extra: { notice?: string; error?: string; period?: string } = {},
    ) => {
      const ctx = withEm(app.challenges, request.em);
      const month = extra.period ?? period(request.query, ctx.clock());
      const summary = await usageSummary(ctx, reader(user), { period: month });
      return reply
        .status(status)
        .type('text/html; charset=utf-8')
        .send(
          usagePage({
            chrome: { prefix, signedInAs: { email: user.email, csrf: reply.generateCsrf() } },
            csrf: reply.generateCsrf(),
            period: month,
            freeAllowance: app.challenges.settings.freeTierMonthlySessions,
            current: ctx.clock().toISOString().slice(0, 7),
            summary,
            plan: await planState(request.em, user.account.id),
            days: await dailyUsage(ctx, summary),
            ...(extra.notice ? { notice: extra.notice } : {}),
            ...(extra.error ? { error: extra.error } : {}),
          }),
        );
    };

    app.get('/usage', async (request, reply) => {
      const user = request.user;
      if (!user) return signIn(reply);
      const plan = await planState(request.em, user.account.id);
      const notices: Record<string, string> = {
        plan_now: `Plan changed to ${planName(plan.tier)}.`,
        plan_unchanged: `Your plan stays ${planName(plan.tier)}.`,
        ...(plan.scheduled
          ? {
              plan_scheduled: `Your plan changes to ${planName(plan.scheduled.tier)} on ${plan.scheduled.at.toISOString().slice(0, 10)}; until then this month is billed as it is.`,
            }
          : {}),
      };
      const notice = (request.query as { notice?: unknown } | undefined)?.notice;
      return show(request, reply, user, 200, {
        ...(typeof notice === 'string' && Object.hasOwn(notices, notice)
          ? { notice: notices[notice] }
          : {}),
      });
    });

    app.post('/usage/plan', { preHandler: app.csrfProtection }, async (request, reply) => {
      const user = request.user;
      if (!user) return signIn(reply);
      const ctx = withEm(app.challenges, request.em);
      const month = ctx.clock().toISOString().slice(0, 7);
      try {
        const change = await changePlan(
          request.em,
          user,
          (request.body as { plan?: unknown } | undefined)?.plan,
          ctx.clock(),
        );
        request.log.info(
          { accountId: user.account.id, plan: change.tier, change: change.kind },
          'plan changed in the console',
        );
        // Post/Redirect/Get: a reload shows the page again instead of re-submitting the change.
        return reply.redirect(`${prefix}/usage?notice=plan_${change.kind}`, 303);
      } catch (error) {
        if (isAppError(error) && error.status < 500)
          return show(request, reply, user, error.status, { error: error.message, period: month });
        throw error;
      }
    });

    app.get('/usage/statement.csv', async (request, reply) => {
      const user = request.user;
      if (!user) return signIn(reply);
      const ctx = withEm(app.challenges, request.em);
      const month = period(request.query, ctx.clock());
      const summary = await usageSummary(ctx, reader(user), { period: month });
      const plan = await planState(request.em, user.account.id);
      const lines = await statementLines(ctx, summary, plan.billingSince);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="latchkey-statement-${month}.csv"`)
        .send(statementCsv(lines));
    });
  };
}
