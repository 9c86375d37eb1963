/**
 * Agent: a registration claimed into the account — who the agents acting for this account are,
 * what they may do and whether they still can. Only claimed (and later revoked) registrations
 * belong to an account; pending ones belong to nobody yet and are not listed.
 */
import { AgentRegistration } from '../../entities/agent-registration.ts';
import { builder } from '../builder.ts';
import { AgentStatusEnum } from './enums.ts';

const AgentType = builder.objectRef<AgentRegistration>('Agent').implement({
  description: 'An agent registered for this account through the claim ceremony.',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'The registration id (`reg_…`): the `agent_id` on its sessions.',
    }),
    status: t.field({
      type: AgentStatusEnum,
      description: '`claimed`, or `revoked` after a security event.',
      resolve: (a) => {
        if (a.status === 'claimed' || a.status === 'revoked') return a.status;
        // The query below lists only these two; anything else is a broken invariant, not input.
        throw new Error(`agent ${a.id} listed in status ${a.status}`);
      },
    }),
    scopes: t.stringList({
      description:
        'The scopes its access tokens carry, as OAuth scope strings (`sessions:read`); `ApiKey.scopes` names the same set as the `Scope` enum.',
      resolve: (a) => a.scope.split(' ').filter(Boolean),
    }),
    claimEmail: t.exposeString('claimEmail', {
      description: 'The person it was registered for (who claimed it).',
    }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      description: 'When the agent registered.',
    }),
    claimedAt: t.expose('claimedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the person claimed it.',
    }),
    revokedAt: t.expose('revokedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was revoked, if it was.',
    }),
  }),
});

builder.queryField('agents', (t) =>
  t.field({
    type: [AgentType],
    description:
      "The account's agents, newest first. Needs `keys:manage` (it manages credentials).",
    authScopes: { scope: 'keys:manage' },
    resolve: (_root, _args, context) =>
      context.em.find(
        AgentRegistration,
        { account: context.principal!.accountId, status: { $in: ['claimed', 'revoked'] } },
        { orderBy: { createdAt: 'desc', id: 'asc' }, limit: 500 },
      ),
  }),
);
