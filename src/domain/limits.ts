/**
 * Limits every face states to its callers, written once: the domain validates with them, and the
 * /v1 routes, MCP tools and OpenAPI document derive their schemas from them (issue 17 §1).
 */

/** The longest a wait may hold, in seconds (GraphQL `waitForVerdict`, `POST /v1/…/wait`). */
export const MAX_WAIT_SECONDS = 300;

/** A page holds 1 to 100 items (`first` in GraphQL, `limit` on /v1 and MCP). */
export const PAGE_SIZE_MIN = 1;
export const PAGE_SIZE_MAX = 100;

/** A cursor (`after`) is an opaque id of at most this many characters. */
export const CURSOR_MAX_LENGTH = 255;
