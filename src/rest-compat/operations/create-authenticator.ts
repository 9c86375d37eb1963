/** `createAuthenticator`: stores a TOTP enrolment; its secret is sealed and never shown again. */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { operation } from '../operation.ts';
import { authenticatorSchema, authenticatorToWire } from './fragments.ts';

export const createAuthenticator = operation({
  document: graphql(`
    mutation CreateAuthenticator($input: CreateAuthenticatorInput!) {
      createAuthenticator(input: $input) { ...AuthenticatorFields }
    }
  `),
  input: z.strictObject({
    target: z.string().max(2048),
    otpauth_uri: z.string().max(4096).optional(),
    secret: z.string().max(1024).optional(),
    digits: z.number().int().min(6).max(8).optional(),
    period: z.number().int().min(15).max(120).optional(),
    algorithm: authenticatorSchema.shape.algorithm.optional(),
    label: z.string().max(200).optional(),
    issuer: z.string().max(200).optional(),
  }),
  output: authenticatorSchema,
  variables: (input) => ({
    input: {
      target: input.target,
      otpauthUri: input.otpauth_uri,
      secret: input.secret,
      digits: input.digits,
      period: input.period,
      algorithm: input.algorithm,
      label: input.label,
      issuer: input.issuer,
    },
  }),
  toWire: (data) => authenticatorToWire(data.createAuthenticator),
});
