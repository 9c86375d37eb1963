/**
 * Authenticators of the account (TOTP enrolments): listed, created and deleted with
 * `authenticators:manage`. No field returns the secret, and none could: the view has none.
 * MCP maps none of these (secrets do not travel through a model's context).
 */
import {
  type AuthenticatorView,
  createAuthenticator,
  deleteAuthenticator,
  listAuthenticators,
} from '../../domain/authenticators/authenticators.ts';
import { totpAlgorithms } from '../../entities/authenticator.ts';
import { builder } from '../builder.ts';
import { domainOf } from '../context.ts';
import { forwardPage, toConnection } from './page.ts';

const TotpAlgorithmEnum = builder.enumType('TotpAlgorithm', {
  description: 'The HMAC hash of a TOTP enrolment (RFC 6238).',
  values: totpAlgorithms,
});

export const AuthenticatorType = builder.objectRef<AuthenticatorView>('Authenticator').implement({
  description:
    'A stored authenticator-app enrolment (RFC 6238 TOTP) that `totp` sessions take codes from. Its secret is never returned.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The authenticator id (`aut_…`).' }),
    target: t.exposeString('target', {
      description: 'The site or app it is for; sessions match on its host.',
    }),
    label: t.exposeString('label', {
      nullable: true,
      description: "The account part of the enrolment's label (after `Issuer:`).",
    }),
    issuer: t.exposeString('issuer', {
      nullable: true,
      description: "The issuer, from the label's prefix or the `issuer` parameter.",
    }),
    digits: t.exposeInt('digits', { description: 'Digits per code, 6 to 8.' }),
    period: t.exposeInt('period', { description: 'Seconds per time step, 15 to 120.' }),
    algorithm: t.field({
      type: TotpAlgorithmEnum,
      description: 'The HMAC hash.',
      resolve: (a) => a.algorithm,
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When it was stored.',
      resolve: (a) => a.createdAt,
    }),
  }),
});

const CreateAuthenticatorInput = builder.inputType('CreateAuthenticatorInput', {
  description:
    'An enrolment: `otpauthUri` (the `otpauth://totp/…` URI behind the QR code), or `secret` (base32) with optional parameters. Exactly one of the two.',
  fields: (t) => ({
    target: t.string({
      required: true,
      description: 'The site or app (a host name or URL) the enrolment is for.',
    }),
    otpauthUri: t.string({ required: false, description: 'An `otpauth://totp/…` URI.' }),
    secret: t.string({ required: false, description: 'The base32 secret, at least 80 bits.' }),
    digits: t.int({ required: false, description: 'With `secret`: 6 to 8 (default 6).' }),
    period: t.int({ required: false, description: 'With `secret`: 15 to 120 s (default 30).' }),
    algorithm: t.field({
      type: TotpAlgorithmEnum,
      required: false,
      description: 'With `secret`: default SHA1.',
    }),
    label: t.string({ required: false, description: 'With `secret`: the account name shown.' }),
    issuer: t.string({ required: false, description: 'With `secret`: the issuer shown.' }),
  }),
});

builder.queryField('authenticators', (t) =>
  t.connection({
    type: AuthenticatorType,
    description:
      "The account's authenticators, oldest first. Page with `first` and `after`. Needs `authenticators:manage`.",
    authScopes: { scope: 'authenticators:manage' },
    complexity: (args) => ({ field: 1, multiplier: args.first ?? 20 }),
    resolve: async (_root, args, context) => {
      const page = forwardPage(args);
      const result = await listAuthenticators(domainOf(context), context.principal!, page);
      return toConnection(result.authenticators, result.hasMore);
    },
  }),
);

builder.mutationFields((t) => ({
  createAuthenticator: t.field({
    type: AuthenticatorType,
    description:
      'Stores an enrolment; its secret is sealed and never shown again. Needs `authenticators:manage`.',
    authScopes: { scope: 'authenticators:manage' },
    args: {
      input: t.arg({
        type: CreateAuthenticatorInput,
        required: true,
        description: 'The enrolment.',
      }),
    },
    resolve: (_root, { input }, context) =>
      createAuthenticator(domainOf(context), context.principal!, {
        target: input.target,
        otpauthUri: input.otpauthUri ?? undefined,
        secret: input.secret ?? undefined,
        digits: input.digits ?? undefined,
        period: input.period ?? undefined,
        algorithm: input.algorithm ?? undefined,
        label: input.label ?? undefined,
        issuer: input.issuer ?? undefined,
      }),
  }),
  deleteAuthenticator: t.field({
    type: 'Boolean',
    description:
      'Deletes an authenticator of the account and erases its secret; its sessions hand out no more codes. Needs `authenticators:manage`.',
    authScopes: { scope: 'authenticators:manage' },
    args: { id: t.arg.id({ required: true, description: 'The authenticator id (`aut_…`).' }) },
    resolve: async (_root, args, context) => {
      await deleteAuthenticator(domainOf(context), context.principal!, String(args.id));
      return true;
    },
  }),
}));
