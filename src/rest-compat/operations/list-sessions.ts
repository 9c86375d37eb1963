/** `sessions`: the account's unexpired active sessions, oldest first (`list_numbers`). */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { nodes, operation, paging } from '../operation.ts';
import { sessionSchema, sessionToWire } from './fragments.ts';

export const listSessions = operation({
  document: graphql(`
    query ListSessions($first: Int, $after: String) {
      sessions(first: $first, after: $after) {
        edges { node { ...SessionFields } }
        pageInfo { hasNextPage }
      }
    }
  `),
  input: paging,
  output: z.object({ sessions: z.array(sessionSchema), has_more: z.boolean() }),
  variables: (input) => ({ first: input.limit ?? 20, after: input.after }),
  toWire: (data) => ({
    sessions: nodes(data.sessions).map(sessionToWire),
    has_more: data.sessions.pageInfo.hasNextPage,
  }),
});
