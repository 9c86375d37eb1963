/** Viewer: who the caller is, as the credential says. */
import type { Principal } from '../../auth/principal.ts';
import { builder } from '../builder.ts';
import { CredentialKindEnum } from './enums.ts';

export const ViewerType = builder.objectRef<Principal>('Viewer').implement({
  description: 'The authenticated caller: an agent (through an access token) or an API key.',
  fields: (t) => ({
    kind: t.field({
      type: CredentialKindEnum,
      description: 'Which kind of credential is calling.',
      resolve: (principal) => principal.kind,
    }),
    accountId: t.exposeString('accountId', {
      description: 'The account (tenant) the credential belongs to.',
    }),
    agentId: t.exposeString('agentId', {
      description: 'What sessions record as `agent_id`: the registration id, or the API key id.',
    }),
    scopes: t.stringList({
      description: 'The scopes the credential holds, as OAuth scope strings (`sessions:read`).',
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
