/** `usage`: the account's usage events, one per billable provision. */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { nodes, operation, paging } from '../operation.ts';
import { usageRecordSchema, usageRecordToWire } from './fragments.ts';

export const period = z.string().describe('A UTC month, YYYY-MM').optional();

export const listUsage = operation({
  document: graphql(`
    query ListUsage($first: Int, $after: String, $period: String) {
      usage(first: $first, after: $after, period: $period) {
        edges { node { ...UsageEventFields } }
        pageInfo { hasNextPage }
      }
    }
  `),
  input: paging.extend({ period }),
  output: z.object({ usage: z.array(usageRecordSchema), has_more: z.boolean() }),
  variables: (input) => ({ first: input.limit ?? 50, after: input.after, period: input.period }),
  toWire: (data) => ({
    usage: nodes(data.usage).map(usageRecordToWire),
    has_more: data.usage.pageInfo.hasNextPage,
  }),
});
