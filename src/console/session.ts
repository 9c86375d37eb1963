/**
 * The console's session cookie: signed, HttpOnly, SameSite=Lax (so a return from an identity
 * provider still carries it), Secure when the console is served over HTTPS. The user it names is
 * resolved once per request, in a preHandler, onto `request.user`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { consoleSessionCookie, consoleSessionHandle } from '../auth/console-principal.ts';
import { announceRevocation } from '../auth/revocation.ts';
import type { Config } from '../config.ts';
import {
  closeConsoleSession,
  openConsoleSession,
  resolveConsoleSession,
} from '../domain/accounts/console-sessions.ts';
import type { User } from '../entities/user.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
  }
}

export const sessionCookie = consoleSessionCookie;

export function cookieOptions(config: Config) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.consoleUrl.startsWith('https:'),
    signed: true,
  };
}

/** The console session token of this request's cookie, when it carries a validly signed one. */
export function cookieToken(request: FastifyRequest): string | null {
  const raw = request.cookies[sessionCookie];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid ? unsigned.value : null;
}

export async function loadUser(request: FastifyRequest) {
  const token = cookieToken(request);
  const user = token ? await resolveConsoleSession(request.em, token) : null;
  // An account the operator disabled is signed out everywhere (npm run admin -- disable).
  request.user = user && !user.account.disabledAt ? user : null;
}

export async function startSession(
  config: Config,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
) {
  const { token, expiresAt } = await openConsoleSession(request.em, user, config.consoleSessionTtl);
  reply.setCookie(sessionCookie, token, { ...cookieOptions(config), expires: expiresAt });
}

export async function endSession(config: Config, request: FastifyRequest, reply: FastifyReply) {
  const token = cookieToken(request);
  if (token) {
    await closeConsoleSession(request.em, token);
    // Ends the dashboard's live stream opened with this session, on every instance.
    await announceRevocation(
      request.server.challenges.events,
      [consoleSessionHandle(token)],
      request.log,
    );
  }
  reply.clearCookie(sessionCookie, cookieOptions(config));
}
