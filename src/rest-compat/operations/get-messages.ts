/**
 * `readMessages`: a session's message metadata and parsed codes (`get_messages`); reading codes
 * consumes them, so it is a mutation (the `messages` query hides codes and consumes nothing).
 */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { nodes, operation, paging } from '../operation.ts';
import { messageSchema, messageToWire } from './fragments.ts';

export const getMessages = operation({
  document: graphql(`
    mutation ReadMessages($id: ID!, $first: Int, $after: String) {
      readMessages(sessionId: $id, first: $first, after: $after) {
        edges { node { ...MessageFields } }
        pageInfo { hasNextPage }
      }
    }
  `),
  input: paging,
  output: z.object({ messages: z.array(messageSchema), has_more: z.boolean() }),
  variables: (input, { id }) => ({ id, first: input.limit ?? 20, after: input.after }),
  toWire: (data) => ({
    messages: nodes(data.readMessages).map(messageToWire),
    has_more: data.readMessages.pageInfo.hasNextPage,
  }),
});
