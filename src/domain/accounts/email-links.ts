/**
 * Single-use links sent by mail. The token is 256 random bits in the link; the database keeps only
 * its SHA-256. Using a link is one `delete … returning` statement, so two clicks racing each other
 * (or two instances) cannot both succeed, and an expired link is refused by the same statement.
 * Times come from the caller's clock, so tests move time instead of waiting a day.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EmailToken, type EmailTokenPurpose } from '../../entities/email-token.ts';
import type { RowOf } from '../../entities/row.ts';
import type { User } from '../../entities/user.ts';
import { AppError } from '../../errors/index.ts';

/** decisions.md: a verification link lasts 24 h, a reset link 1 h. */
export const linkTtlSeconds: Record<EmailTokenPurpose, number> = {
  verify_email: 24 * 3600,
  reset_password: 3600,
};

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a link token for `user` at their current email; returns the token for the link. */
export async function issueEmailToken(
  em: EntityManager,
  user: User,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // Old links of this person that have expired go now; nothing else would remove them sooner.
  await em.execute('delete from email_token where user_id = ? and expires_at <= ?', [user.id, now]);
  em.create(EmailToken, {
    tokenHash: digest(token),
    user,
    purpose,
    email: user.email,
    createdAt: now,
    expiresAt: new Date(now.getTime() + linkTtlSeconds[purpose] * 1000),
  });
  await em.flush();
  return token;
}

export const invalidLink = () =>
  new AppError(
    'link_invalid',
    'This link is not valid any more: it was used already, it has expired, or it was copied incompletely. Ask for a new one.',
  );

/**
 * Uses a token once: deletes it and answers whose it was and the address it was sent to.
 * Throws `link_invalid` for an unknown, used, expired or other-purpose token.
 */
export async function consumeEmailToken(
  em: EntityManager,
  token: unknown,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<{ userId: string; email: string }> {
  if (typeof token !== 'string' || token.length < 20 || token.length > 100) throw invalidLink();
  const rows = await em.execute<Pick<RowOf<EmailToken>, 'user_id' | 'email'>[]>(
    `delete from email_token where token_hash = ? and purpose = ? and expires_at > ?
     returning user_id, email`,
    [digest(token), purpose, now],
  );
  const row = rows[0];
  if (!row) throw invalidLink();
  return { userId: row.user_id, email: row.email };
}

/** Whether `token` would be accepted now (the reset form is shown only for a live link). */
export async function isLiveEmailToken(
  em: EntityManager,
  token: unknown,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<boolean> {
  if (typeof token !== 'string' || token.length < 20 || token.length > 100) return false;
  const rows = await em.execute<{ n: number }[]>(
    'select 1 as n from email_token where token_hash = ? and purpose = ? and expires_at > ?',
    [digest(token), purpose, now],
  );
  return rows.length > 0;
}
