/** Usage: billable provisions and the period summary with the amount due, in integer cents. */
import {
  listUsage,
  type UsageEventView,
  type UsageSummary,
  usageSummary,
} from '../../domain/usage/queries.ts';
import { builder } from '../builder.ts';
import { domainOf } from '../context.ts';
import { BillingTierEnum, ChannelEnum, UsageKindEnum, UsageStatusEnum } from './enums.ts';
import { forwardPage, toConnection } from './page.ts';

const UsageEventType = builder.objectRef<UsageEventView>('UsageEvent').implement({
  description: 'One provision: a session opened or rerouted.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The usage event id; a paging cursor.' }),
    kind: t.field({
      type: UsageKindEnum,
      description: 'Opened or rerouted.',
      resolve: (u) => u.kind,
    }),
    status: t.field({
      type: UsageStatusEnum,
      description: 'Whether it is billed.',
      resolve: (u) => u.status,
    }),
    sessionId: t.exposeID('sessionId', { description: 'The session provisioned.' }),
    channel: t.field({
      type: ChannelEnum,
      description: "The session's channel.",
      resolve: (u) => u.channel,
    }),
    credentialId: t.exposeString('credentialId', {
      description: 'The credential counted (agent or API key).',
    }),
    agentId: t.exposeString('agentId', { description: 'The agent_id recorded on the session.' }),
    occurredAt: t.expose('occurredAt', {
      type: 'DateTime',
      description: 'When the provision happened.',
    }),
    settledAt: t.expose('settledAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it became billable or not billed.',
    }),
  }),
});

const CredentialUsageType = builder
  .objectRef<UsageSummary['byCredential'][number]>('CredentialUsage')
  .implement({
    description: 'Usage of one credential (agent or API key) in the period.',
    fields: (t) => ({
      credentialId: t.exposeString('credentialId', {
        description: 'The agent (reg_…) or API key (key_…).',
      }),
      sessionsUsed: t.exposeInt('sessionsUsed', {
        description: 'Opens and reroutes by this credential.',
      }),
      billableSessions: t.exposeInt('billableSessions', { description: 'Of those, billed.' }),
    }),
  });

const UsageSummaryType = builder.objectRef<UsageSummary>('UsageSummary').implement({
  description: 'A billing period (a UTC month) of the account.',
  fields: (t) => ({
    accountId: t.exposeString('accountId', { description: 'The account.' }),
    tier: t.field({
      type: BillingTierEnum,
      description: 'The plan the period is billed on.',
      resolve: (s) => s.tier,
    }),
    periodStart: t.expose('periodStart', {
      type: 'DateTime',
      description: 'Start of the period (inclusive).',
    }),
    periodEnd: t.expose('periodEnd', {
      type: 'DateTime',
      description: 'End of the period (exclusive).',
    }),
    sessionsUsed: t.exposeInt('sessionsUsed', {
      description: 'Opens and reroutes, billed or not (live allowance).',
    }),
    billableSessions: t.exposeInt('billableSessions', {
      description: 'Sessions that yielded a code or link.',
    }),
    pendingSessions: t.exposeInt('pendingSessions', {
      description: 'Live sessions without a code yet.',
    }),
    unbilledSessions: t.exposeInt('unbilledSessions', {
      description: 'Sessions that ended without a code.',
    }),
    includedSessions: t.exposeInt('includedSessions', {
      description: 'Sessions the tier includes at no charge.',
    }),
    allowanceRemaining: t.exposeInt('allowanceRemaining', {
      nullable: true,
      description: 'Free tier: what is left of the allowance.',
    }),
    unitPriceCents: t.exposeInt('unitPriceCents', {
      description: 'Price of one billable session, in cents.',
    }),
    amountDueCents: t.exposeInt('amountDueCents', {
      description: 'Amount due for the period, in integer cents.',
    }),
    currency: t.exposeString('currency', { description: 'ISO 4217; USD.' }),
    byCredential: t.field({
      type: [CredentialUsageType],
      description: 'The period by credential.',
      resolve: (s) => s.byCredential,
    }),
  }),
});

builder.queryFields((t) => ({
  usage: t.connection({
    type: UsageEventType,
    description: "The account's usage events, oldest first. Needs `usage:read`.",
    authScopes: { scope: 'usage:read' },
    args: {
      period: t.arg.string({
        required: false,
        description: 'A UTC month, YYYY-MM; all time when absent.',
      }),
    },
    complexity: (args) => ({ field: 1, multiplier: args.first ?? 50 }),
    resolve: async (_root, args, context) => {
      const page = forwardPage(args, 50);
      const result = await listUsage(domainOf(context), context.principal!, {
        ...page,
        period: args.period ?? undefined,
      });
      return toConnection(result.events, result.hasMore);
    },
  }),
  usageSummary: t.field({
    type: UsageSummaryType,
    description: 'The billing summary of a period (default: this month). Needs `usage:read`.',
    authScopes: { scope: 'usage:read' },
    args: { period: t.arg.string({ required: false, description: 'A UTC month, YYYY-MM.' }) },
    resolve: (_root, args, context) =>
      usageSummary(domainOf(context), context.principal!, { period: args.period ?? undefined }),
  }),
}));
