/**
 * Console sessions: a random 256-bit token in the cookie, its SHA-256 in the database. Resolving a
 * session is one indexed lookup; an expired session is treated as absent and removed.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConsoleSession } from '../../entities/console-session.ts';
import type { User } from '../../entities/user.ts';

/** The stored form of a session token (its SHA-256, hex). */
export const sessionHash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function openConsoleSession(em: EntityManager, user: User, ttlSeconds: number) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  em.create(ConsoleSession, { tokenHash: sessionHash(token), user, expiresAt });
  await em.flush();
  return { token, expiresAt };
}

export async function resolveConsoleSession(
  em: EntityManager,
  token: string,
): Promise<User | null> {
  const session = await em.findOne(
    ConsoleSession,
    { tokenHash: sessionHash(token) },
    { populate: ['user', 'user.account'] },
  );
  if (!session) return null;
  if (session.expiresAt.getTime() <= Date.now()) {
    await em.nativeDelete(ConsoleSession, { tokenHash: session.tokenHash });
    return null;
  }
  return session.user;
}

export async function closeConsoleSession(em: EntityManager, token: string) {
  await em.nativeDelete(ConsoleSession, { tokenHash: sessionHash(token) });
}
