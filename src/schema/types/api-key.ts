/** API keys of the account: listed without their secrets; a new key's secret is shown once. */

import { type Scope, scopes } from '../../auth/principal.ts';
import { announceRevocation } from '../../auth/revocation.ts';
import {
  type ApiKeyView,
  createApiKey,
  deleteApiKey,
  listApiKeys,
  viewOf,
} from '../../domain/agents/api-keys.ts';
import { AppError } from '../../errors/index.ts';
import { builder } from '../builder.ts';

const ScopeEnum = builder.enumType('Scope', {
  description: 'A permission a credential holds.',
  values: Object.fromEntries(
    scopes.map((scope) => [scope.replace(':', '_').toUpperCase(), { value: scope }]),
  ) as Record<string, { value: Scope }>,
});

export const ApiKeyType = builder.objectRef<ApiKeyView>('ApiKey').implement({
  description:
    'A live API key (sent as `x-api-key`). Its secret is never shown again after creation.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The key id (`key_…`); not the secret.' }),
    name: t.exposeString('name', { description: 'A label chosen at creation.' }),
    hint: t.exposeString('hint', {
      description: 'The first characters of the secret, to recognise it.',
    }),
    scopes: t.field({
      type: [ScopeEnum],
      description: 'What the key may do.',
      resolve: (k) => k.scopes,
    }),
    createdBy: t.exposeString('created_by', {
      description: 'The credential or person that created it.',
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the key was created.',
      resolve: (k) => new Date(k.created_at),
    }),
    lastUsedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the key was last used (to the minute); null if never.',
      resolve: (k) => (k.last_used_at ? new Date(k.last_used_at) : null),
    }),
  }),
});

const CreatedApiKeyType = builder
  .objectRef<{ apiKey: ApiKeyView; secret: string }>('CreatedApiKey')
  .implement({
    description: 'A new API key and its secret, shown this once.',
    fields: (t) => ({
      apiKey: t.field({
        type: ApiKeyType,
        description: 'The new key, as listings show it.',
        resolve: (r) => r.apiKey,
      }),
      secret: t.exposeString('secret', {
        description: 'The key itself; store it now, it is not shown again.',
      }),
    }),
  });

builder.queryField('apiKeys', (t) =>
  t.field({
    type: [ApiKeyType],
    description: "The account's API keys, newest first. Needs `keys:manage`.",
    authScopes: { scope: 'keys:manage' },
    resolve: async (_root, _args, context) =>
      (await listApiKeys(context.em, context.principal!.accountId)).map(viewOf),
  }),
);

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKeyType,
    description:
      "Creates an API key with at most the caller's own scopes (default: all of them). Needs `keys:manage`.",
    authScopes: { scope: 'keys:manage' },
    args: {
      name: t.arg.string({
        required: false,
        description: 'A label for the key (default `API key`).',
      }),
      scopes: t.arg({
        type: [ScopeEnum],
        required: false,
        description: "The key's scopes; at most the caller's own (default: all of them).",
      }),
    },
    resolve: async (_root, args, context) => {
      const principal = context.principal!;
      const { key, secret } = await createApiKey(
        context.em,
        {
          accountId: principal.accountId,
          name: args.name ?? 'API key',
          scopes: args.scopes ?? [...principal.scopes],
          createdBy: principal.credentialId,
        },
        principal.scopes,
      );
      return { apiKey: viewOf(key), secret };
    },
  }),
  deleteApiKey: t.field({
    type: 'Boolean',
    description:
      'Deletes an API key of the account and every key it minted; they stop working at once, and their open subscriptions, streams and waits end. Needs `keys:manage`.',
    authScopes: { scope: 'keys:manage' },
    args: { id: t.arg.id({ required: true, description: 'The key id (`key_…`).' }) },
    resolve: async (_root, args, context) => {
      const deleted = await deleteApiKey(context.em, context.principal!.accountId, String(args.id));
      if (deleted.length === 0) throw new AppError('not_found', 'No such API key');
      const { events, log } = context.services.challenge;
      await announceRevocation(events, deleted, log);
      return true;
    },
  }),
}));
