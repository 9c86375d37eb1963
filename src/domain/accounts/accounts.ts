/**
 * Console accounts: sign-up (a customer account created with its first user, unverified until the
 * mailed link is opened), sign-in by password with throttling against guessing, and sign-in
 * through an upstream OpenID provider.
 *
 * Throttling: every attempt is counted *before* its password is checked, with one atomic upsert
 * per key (per email, hashed, and per client address) in the database, so parallel attempts each
 * see their own count and at most `maxFailures` are ever evaluated in a window, on any number of
 * instances. Past the limit even the right password is refused until the window ends (that is what
 * stops guessing). A success clears the email's count and gives the address its attempt back.
 * Sign-ups are counted per client address the same way.
 */
import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { Account } from '../../entities/account.ts';
import { SocialIdentity } from '../../entities/social-identity.ts';
import { User } from '../../entities/user.ts';
import { AppError, validate } from '../../errors/index.ts';
import type { DomainLog } from '../context.ts';
import { hit, reset, reward } from '../throttle/counter.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.ts';

export const emailSchema = z
  .string()
  .trim()
  .max(320)
  .pipe(z.email({ message: 'Enter a valid email address' }))
  .transform((email) => email.toLowerCase());

export const passwordSchema = z
  .string()
  .min(10, 'Use at least 10 characters')
  .max(200, 'Use at most 200 characters');

export interface ThrottlePolicy {
  maxFailures: number;
  windowSeconds: number;
}

export const signinEmailKey = (email: string) =>
  `signin:email:${createHash('sha256').update(email).digest('hex')}`;
/** A client address may fail this many times more than one email before it is throttled too. */
const addressFactor = 4;

export interface SignupPolicy {
  maxPerAddress: number;
  windowSeconds: number;
}

/**
 * Creates an account and its first user, unverified. Counted per client address before anything
 * else (hashing a password is deliberately expensive), so one address cannot mass-create accounts.
 */
export async function signUp(
  em: EntityManager,
  input: { email: string; password: string; address: string },
  policy: SignupPolicy,
  now = new Date(),
) {
  const state = await hit(em, `signup:ip:${input.address}`, policy.windowSeconds, now);
  if (state.count > policy.maxPerAddress) {
    throw throttled(
      state.windowEndsAt,
      now,
      'Too many accounts were created from your network; wait before trying again',
    );
  }
  const email = validate(emailSchema, input.email);
  const passwordHash = await hashPassword(validate(passwordSchema, input.password));
  try {
    return await em.transactional(async (tx) => {
      const account = tx.create(Account, { name: `${email}'s account` });
      const user = tx.create(User, { account, email, passwordHash, emailVerifiedAt: null });
      return user;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw new AppError(
        'email_taken',
        'An account with this email already exists; sign in instead',
      );
    }
    throw error;
  }
}

export async function signIn(
  em: EntityManager,
  input: { email: string; password: string; address: string },
  policy: ThrottlePolicy,
  log: DomainLog,
  now = new Date(),
): Promise<User> {
  const email = input.email.trim().toLowerCase();
  const emailKey = signinEmailKey(email);
  const addressKey = `signin:ip:${input.address}`;
  // Count first, check the password second: the count each attempt gets is its own, so the
  // attempts beyond the limit are refused without being evaluated, however many run at once.
  const byEmail = await hit(em, emailKey, policy.windowSeconds, now);
  const byAddress = await hit(em, addressKey, policy.windowSeconds, now);
  const addressLimit = policy.maxFailures * addressFactor;
  const over = [
    byEmail.count > policy.maxFailures && byEmail,
    byAddress.count > addressLimit && byAddress,
  ].find(Boolean);
  if (over) {
    log.info({ event: 'console_signin', outcome: 'throttled' }, 'console sign-in refused');
    throw throttled(over.windowEndsAt, now);
  }
  const user = await em.findOne(User, { email }, { populate: ['account'] });
  let ok = false;
  if (user?.passwordHash) ok = await verifyPassword(input.password, user.passwordHash);
  else await burnPasswordCheck(input.password);
  if (!ok || !user) {
    log.info({ event: 'console_signin', outcome: 'failure' }, 'console sign-in refused');
    const reached = [
      byEmail.count >= policy.maxFailures && byEmail,
      byAddress.count >= addressLimit && byAddress,
    ].find(Boolean);
    if (reached) throw throttled(reached.windowEndsAt, now);
    throw new AppError('invalid_credentials');
  }
  // Checked after the password, so a stranger learns nothing about the account from it.
  if (user.account.disabledAt) {
    log.info({ event: 'console_signin', outcome: 'disabled' }, 'console sign-in refused');
    throw new AppError('account_disabled');
  }
  await reset(em, emailKey);
  await reward(em, addressKey);
  log.info({ event: 'console_signin', outcome: 'success', userId: user.id }, 'console sign-in');
  return user;
}

function throttled(
  until: Date,
  now: Date,
  message = 'Too many failed sign-ins; wait before trying again',
) {
  const retryAfter = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new AppError('rate_limited', message, { retryAfter });
}

export interface UpstreamIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
}

/**
 * Finds or creates the user behind an upstream identity. A known (issuer, subject) signs in as
 * its user. Otherwise the upstream must vouch for the email (`email_verified`): it then joins the
 * user with that email, or a new (verified) account is created. An unverified upstream email never
 * joins an existing user, which would let anyone who can register that email upstream take the
 * account over; and nothing joins an existing user whose own email is unverified, which would let
 * whoever signed up first with someone else's address keep a way into the owner's account (a
 * pre-account takeover). That refusal is `email_unverified`; the owner can take the account back
 * through "Forgot password".
 */
export async function signInUpstream(
  em: EntityManager,
  identity: UpstreamIdentity,
  now = new Date(),
): Promise<User> {
  const linked = await em.findOne(
    SocialIdentity,
    { issuer: identity.issuer, subject: identity.subject },
    { populate: ['user'] },
  );
  if (linked) return linked.user;
  const parsed = emailSchema.safeParse(identity.email ?? '');
  if (!parsed.success || !identity.emailVerified) {
    throw new AppError(
      'forbidden',
      'The identity provider did not confirm an email address for you',
    );
  }
  const email = parsed.data;
  try {
    return await em.transactional(async (tx) => {
      let user = await tx.findOne(User, { email });
      if (user && !user.emailVerifiedAt) {
        throw new AppError(
          'email_unverified',
          'An account with this email exists but its address has not been verified, so it cannot be joined to this sign-in. If it is yours, sign in with its password and verify your email, or use "Forgot password" to take it over; then continue with this provider.',
        );
      }
      if (!user) {
        const account = tx.create(Account, { name: `${email}'s account` });
        user = tx.create(User, { account, email, passwordHash: null, emailVerifiedAt: now });
      }
      tx.create(SocialIdentity, { user, issuer: identity.issuer, subject: identity.subject });
      return user;
    });
  } catch (error) {
    // Two first sign-ins racing: the loser signs in as whatever the winner created.
    if (error instanceof UniqueConstraintViolationException) {
      return signInUpstream(em.fork(), identity, now);
    }
    throw error;
  }
}
