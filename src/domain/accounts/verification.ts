/**
 * Verified email: what proves a person receives mail at their account's address, and the one gate
 * every credential-granting action calls (`requireVerifiedAccount`): claiming an agent, creating an
 * API key or a webhook endpoint, changing plan. Without it, anyone could sign up with someone
 * else's address and use the account before its owner arrives (a pre-account takeover).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../../entities/user.ts';
import { AppError } from '../../errors/index.ts';
import type { Mailer } from '../../mail/outgoing.ts';
import { hit } from '../throttle/counter.ts';
import { consumeEmailToken, issueEmailToken, linkTtlSeconds } from './email-links.ts';

export const isEmailVerified = (user: User) => user.emailVerifiedAt != null;

export const unverified = () =>
  new AppError(
    'email_unverified',
    'Verify your email address first: open the link in the verification email we sent you (the dashboard can send it again).',
  );

/**
 * Refuses (`email_unverified`, 403) unless the account is verified: for a signed-in `User`, that
 * person's email; for an account id (API keys, agents), any user of the account whose email is
 * verified.
 */
export async function requireVerifiedAccount(
  em: EntityManager,
  who: User | { accountId: string },
): Promise<void> {
  if (who instanceof User) {
    if (!isEmailVerified(who)) throw unverified();
    return;
  }
  const verified = await em.count(User, {
    account: who.accountId,
    emailVerifiedAt: { $ne: null },
  });
  if (verified === 0) throw unverified();
}

/** Resends are limited per person, so the button cannot be used to flood a mailbox. */
export const resendLimit = { max: 5, windowSeconds: 3600 };

/** Mails `user` a verification link (`{console_url}/verify?token=…`). */
export async function sendVerificationMail(
  em: EntityManager,
  mailer: Mailer,
  consoleUrl: string,
  user: User,
  now: Date,
): Promise<void> {
  const token = await issueEmailToken(em, user, 'verify_email', now);
  const link = `${consoleUrl}/verify?token=${token}`;
  mailer.send({
    to: user.email,
    subject: 'Verify your email address for Latchkey',
    link,
    text: [
      'Welcome to Latchkey.',
      '',
      'Open this link to verify your email address:',
      '',
      link,
      '',
      `The link works once and expires in ${linkTtlSeconds.verify_email / 3600} hours.`,
      'If you did not create a Latchkey account, ignore this email: nothing happens without the link.',
    ].join('\n'),
  });
}

/** The dashboard's "Resend verification email": at most `resendLimit` per person per hour. */
export async function resendVerificationMail(
  em: EntityManager,
  mailer: Mailer,
  consoleUrl: string,
  user: User,
  now: Date,
): Promise<void> {
  if (isEmailVerified(user)) return;
  const state = await hit(em, `verify-resend:${user.id}`, resendLimit.windowSeconds, now);
  if (state.count > resendLimit.max) {
    throw new AppError('rate_limited', 'Too many verification emails; wait before asking again', {
      retryAfter: Math.max(1, Math.ceil((state.windowEndsAt.getTime() - now.getTime()) / 1000)),
    });
  }
  await sendVerificationMail(em, mailer, consoleUrl, user, now);
}

/**
 * Uses a verification link: marks the address verified when it is still the account's address.
 * Returns the user it verified; `link_invalid` for a used, expired or unknown link.
 */
export async function verifyEmail(em: EntityManager, token: unknown, now: Date): Promise<User> {
  const { userId, email } = await consumeEmailToken(em, token, 'verify_email', now);
  const user = await em.findOne(User, { id: userId }, { populate: ['account'] });
  if (!user || user.email !== email)
    throw new AppError('link_invalid', 'This link is for an address the account no longer uses.');
  user.emailVerifiedAt ??= now;
  await em.flush();
  return user;
}
