/**
 * Relay-style pages over the domain's `after`/`hasMore` listings: the cursor is the last item's
 * id, so the same cursor works on /v1 (`after`) and in GraphQL. Only forward paging is offered.
 */

import { PAGE_SIZE } from '../../domain/limits.ts';
import { AppError } from '../../errors/index.ts';

export interface ForwardArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export function forwardPage(args: ForwardArgs, fallback: number = PAGE_SIZE.default) {
  if (args.last != null || args.before != null) {
    throw new AppError('invalid_request', 'Only forward paging (first, after) is supported');
  }
  const limit = args.first ?? fallback;
  if (!Number.isInteger(limit) || limit < PAGE_SIZE.min || limit > PAGE_SIZE.max) {
    throw new AppError('invalid_request', `first: use ${PAGE_SIZE.min} to ${PAGE_SIZE.max}`, {
      extra: { field: 'first' },
    });
  }
  return { limit, after: args.after ?? undefined };
}

export function toConnection<T extends { id: string }>(items: T[], hasMore: boolean) {
  return {
    edges: items.map((node) => ({ cursor: node.id, node })),
    pageInfo: {
      hasNextPage: hasMore,
      hasPreviousPage: false,
      startCursor: items[0]?.id ?? null,
      endCursor: items.at(-1)?.id ?? null,
    },
  };
}
