/** Viewer: who the caller is, as the credential says. */
import type { Principal } from '../../auth/principal.ts';
import { builder } from '../builder.ts';

export const ViewerType = builder.objectRef<Principal>('Viewer').implement({
  description: 'The authenticated caller: an agent (through an access token) or an API key.',
  fields: (t) => ({
    kind: t.string({
      description:
        "`agent` for an access token of a claimed registration, `api_key` for an API key, `console` for the console's own read-only stream (a person's console session).",
      resolve: (principal) => principal.kind,
    }),
    accountId: t.exposeString('accountId', {
      description: 'The account (tenant) the credential belongs to.',
    }),
    agentId: t.exposeString('agentId', {
      description: 'What sessions record as `agent_id`: the registration id, or the API key id.',
    }),
    scopes: t.stringList({
      description: 'The scopes the credential holds.',
      resolve: (principal) => [...principal.scopes].sort(),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerType,
    description: 'The authenticated caller.',
    authScopes: { authenticated: true },
    resolve: (_root, _args, context) => context.principal!,
  }),
);
