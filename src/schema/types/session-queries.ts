/** Reading sessions: one by id, and the account's unexpired active sessions, oldest first. */
import { listSessions, readSession } from '../../domain/sessions/read.ts';
import { builder } from '../builder.ts';
import { domainOf } from '../context.ts';
import { ChallengeSessionType } from './challenge-session.ts';
import { forwardPage, toConnection } from './page.ts';

builder.queryFields((t) => ({
  session: t.field({
    type: ChallengeSessionType,
    description: 'A session of your account, by id. Needs `sessions:read`.',
    authScopes: { scope: 'sessions:read' },
    args: { id: t.arg.id({ required: true, description: 'The session id.' }) },
    resolve: (_root, args, context) =>
      readSession(domainOf(context), context.principal!, String(args.id)),
  }),
  sessions: t.connection({
    type: ChallengeSessionType,
    description:
      "The account's unexpired active sessions, oldest first (`list_numbers`). Page with `first` and `after`. Needs `sessions:read`.",
    authScopes: { scope: 'sessions:read' },
    complexity: (args) => ({ field: 1, multiplier: args.first ?? 20 }),
    resolve: async (_root, args, context) => {
      const page = forwardPage(args);
      const result = await listSessions(domainOf(context), context.principal!, page);
      return toConnection(result.sessions, result.hasMore);
    },
  }),
}));
