/**
 * Limits every face states to its callers, written once: the domain validates with them, and the
 * GraphQL connections, the /v1 routes, MCP tools and OpenAPI document derive their schemas from
 * them (issue 17 §1).
 */
import { z } from 'zod';

/** The longest a wait may hold, in seconds (GraphQL `waitForVerdict`, `POST /v1/…/wait`). */
export const MAX_WAIT_SECONDS = 300;

/** A page holds 1 to 100 items (`first` in GraphQL, `limit` on /v1 and MCP). */
export const PAGE_SIZE_MIN = 1;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE = { min: PAGE_SIZE_MIN, max: PAGE_SIZE_MAX, default: 20 } as const;

/** A cursor (`after`) is an opaque id of at most this many characters. */
export const CURSOR_MAX_LENGTH = 255;

/** A listing's `limit`: an integer within the page bounds, `fallback` when absent. */
export const pageLimit = (fallback: number = PAGE_SIZE.default) =>
  z.coerce.number().int().min(PAGE_SIZE_MIN).max(PAGE_SIZE_MAX).default(fallback);

/** A listing's `after`: an opaque cursor, absent for the first page. */
export const cursor = () => z.string().min(1).max(CURSOR_MAX_LENGTH).optional();
