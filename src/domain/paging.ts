/**
 * How big a page of any listing may be, stated once: every listing's input, the GraphQL
 * connections' `first` and the /v1 and MCP `limit` take their bounds from here.
 */
import { z } from 'zod';

export const PAGE_SIZE = { min: 1, max: 100, default: 20 } as const;

/** A listing's `limit`: an integer within the page bounds, `fallback` when absent. */
export const pageLimit = (fallback: number = PAGE_SIZE.default) =>
  z.coerce.number().int().min(PAGE_SIZE.min).max(PAGE_SIZE.max).default(fallback);
