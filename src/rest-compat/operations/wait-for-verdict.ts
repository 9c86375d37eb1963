/** `waitForVerdict`: blocks until the session's first unconsumed verdict, or the timeout. */
import { z } from 'zod';
import { MAX_WAIT_SECONDS } from '../../domain/limits.ts';
import { graphql } from '../generated/index.ts';
import { operation } from '../operation.ts';
import { verdictSchema, verdictToWire } from './fragments.ts';

export const waitForVerdict = operation({
  document: graphql(`
    mutation WaitForVerdict($id: ID!, $timeout: Float) {
      waitForVerdict(sessionId: $id, timeout: $timeout) { ...VerdictFields }
    }
  `),
  input: z.strictObject({ timeout: z.number().min(0).max(MAX_WAIT_SECONDS).optional() }),
  output: verdictSchema,
  variables: (input, { id }) => ({ id, timeout: input.timeout }),
  toWire: (data) => verdictToWire(data.waitForVerdict),
});
