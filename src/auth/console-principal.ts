/**
 * The console's own session as a GraphQL principal, so the dashboard is a client of the same
 * schema as every agent (its live updates come from the `accountEvents` subscription, with the
 * schema's scope and tenant checks), not from a second event path.
 *
 * The cookie is ambient authority, so it is honoured narrowly (docs/security/console.md):
 * - only for `GET /graphql` asking for `text/event-stream` (an EventSource), which yoga never runs
 *   a mutation for, and only when no `Authorization` or `x-api-key` header is sent;
 * - only from the console's own origin: `Sec-Fetch-Site: same-origin`, or an `Origin` equal to the
 *   console's; a request from another site (or one that says neither) is not authenticated by
 *   its cookie at all (besides, the cookie is SameSite=Lax, so other sites' subresources lack it);
 * - with one read-only scope, `sessions:read` (never `otp:read`: the schema's readers that would
 *   consume a code stay closed; the console reads codes itself without consuming them);
 * - for as long as the console session lives: signing out announces its revocation, which ends the
 *   stream at once (revocation.ts), and the periodic re-check catches an expiry.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyRequest } from 'fastify';
import { resolveConsoleSession, sessionHash } from '../domain/accounts/console-sessions.ts';
import type { Principal } from './principal.ts';

/** The session cookie's name (console/session.ts sets it). */
export const consoleSessionCookie = 'lk_session';

/** The revocation handle of a console session: a digest of its token, never the token. */
export const consoleSessionHandle = (token: string) => `cses_${sessionHash(token)}`;

/** Whether the request comes from a page of `consoleOrigin` itself (Fetch Metadata, then Origin). */
export function sameOriginRequest(request: FastifyRequest, consoleOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  if (site !== undefined && site !== 'same-origin') return false;
  if (origin !== undefined && origin !== consoleOrigin) return false;
  return site === 'same-origin' || origin === consoleOrigin;
}

/**
 * The console principal of this request, or null when the request does not qualify (then the
 * usual credential check runs and refuses it with 401 like any request without credentials).
 */
export async function consolePrincipal(
  request: FastifyRequest,
  consoleOrigin: string,
): Promise<Principal | null> {
  if (request.method !== 'GET') return null;
  if (request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined)
    return null;
  if (!/\btext\/event-stream\b/.test(request.headers.accept ?? '')) return null;
  if (!sameOriginRequest(request, consoleOrigin)) return null;
  const raw = request.cookies?.[consoleSessionCookie];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  const user = await resolveConsoleSession(request.em, unsigned.value);
  if (!user || user.account.disabledAt) return null;
  const handle = consoleSessionHandle(unsigned.value);
  return {
    kind: 'console',
    accountId: user.account.id,
    credentialId: handle,
    agentId: user.id,
    scopes: new Set(['sessions:read']),
    lineage: [handle],
  };
}

/** Whether the console session behind a console principal still lives (revocation re-check). */
export async function consoleSessionLive(em: EntityManager, handle: string, now: Date) {
  const rows = await em.execute<{ one: number }[]>(
    `select 1 as one from console_session s join app_user u on u.id = s.user_id
       join account a on a.id = u.account_id
     where s.token_hash = ? and s.expires_at > ? and a.disabled_at is null`,
    [handle.slice('cses_'.length), now],
  );
  return rows.length === 1;
}
