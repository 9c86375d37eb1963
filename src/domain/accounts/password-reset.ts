/**
 * Forgotten passwords: a reset link by mail (`{console_url}/reset?token=…`, single use, 1 h) and
 * the reset itself, which sets the password, marks the address verified (the link proved the
 * mailbox), ends every other console session of the person and clears their sign-in throttle.
 *
 * Asking for a link never says whether the account exists: the answer is the same, and the work
 * (look-up, token, mail) happens after it. Requests are limited per address and per email so the
 * form cannot flood a mailbox; past the limit they are dropped silently, for the same reason.
 */
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../../entities/user.ts';
import { validate } from '../../errors/index.ts';
import type { Mailer } from '../../mail/outgoing.ts';
import { hit, reset } from '../throttle/counter.ts';
import { emailSchema, passwordSchema, signinEmailKey } from './accounts.ts';
import { consumeEmailToken, issueEmailToken, linkTtlSeconds } from './email-links.ts';
import { hashPassword } from './passwords.ts';

export const resetRequestLimits = {
  perEmail: { max: 3, windowSeconds: 3600 },
  perAddress: { max: 20, windowSeconds: 3600 },
};

/**
 * Mails a reset link to `rawEmail` when it belongs to an account and the limits allow; otherwise
 * does nothing. The caller has already answered; this never throws for a client mistake.
 */
export async function requestPasswordReset(
  em: EntityManager,
  mailer: Mailer,
  consoleUrl: string,
  input: { email: string; address: string },
  now: Date,
): Promise<void> {
  const parsed = emailSchema.safeParse(input.email);
  if (!parsed.success) return;
  const email = parsed.data;
  const { perEmail, perAddress } = resetRequestLimits;
  const byAddress = await hit(em, `reset:ip:${input.address}`, perAddress.windowSeconds, now);
  if (byAddress.count > perAddress.max) return;
  const emailHash = createHash('sha256').update(email).digest('hex');
  const byEmail = await hit(em, `reset:email:${emailHash}`, perEmail.windowSeconds, now);
  if (byEmail.count > perEmail.max) return;
  const user = await em.findOne(User, { email });
  if (!user) return;
  const token = await issueEmailToken(em, user, 'reset_password', now);
  const link = `${consoleUrl}/reset?token=${token}`;
  mailer.send({
    to: user.email,
    subject: 'Reset your Latchkey password',
    link,
    text: [
      'Someone (hopefully you) asked to reset the password of your Latchkey account.',
      '',
      'Open this link to choose a new password:',
      '',
      link,
      '',
      `The link works once and expires in ${linkTtlSeconds.reset_password / 60} minutes.`,
      'Setting a new password signs out every other browser signed in to your account.',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  });
}

/**
 * Uses a reset link: sets the new password and verifies the address, ends every console session
 * of the person except `keepSessionHash` (the browser resetting, when it is signed in as them),
 * voids their other reset links and clears the sign-in throttle for their email. All in one
 * transaction, so a failure leaves the link usable and nothing half-done.
 */
export async function resetPassword(
  em: EntityManager,
  input: { token: unknown; password: string; keepSessionHash?: string },
  now: Date,
): Promise<User> {
  // Check and hash the new password first: a too-short password must not use up the link.
  const passwordHash = await hashPassword(validate(passwordSchema, input.password));
  return em.transactional(async (tx) => {
    const { userId, email } = await consumeEmailToken(tx, input.token, 'reset_password', now);
    const user = await tx.findOneOrFail(User, { id: userId }, { populate: ['account'] });
    user.passwordHash = passwordHash;
    if (user.email === email) user.emailVerifiedAt ??= now;
    await tx.flush();
    await tx.execute('delete from console_session where user_id = ? and token_hash <> ?', [
      user.id,
      input.keepSessionHash ?? '',
    ]);
    await tx.execute('delete from email_token where user_id = ? and purpose = ?', [
      user.id,
      'reset_password',
    ]);
    await reset(tx, signinEmailKey(user.email));
    return user;
  });
}
