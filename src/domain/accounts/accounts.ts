/**
 * Console accounts: sign-up (a customer account created with its first user), sign-in by
 * password with throttling against guessing, and sign-in through an upstream OpenID provider.
 *
 * Throttling: failures are counted per email (hashed) and per client address in the database, so
 * the limit holds across instances; once an email has `maxFailures` failures in the window, even
 * the right password is refused until the window ends (that is what stops guessing).
 */
import { createHash } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { Account } from '../../entities/account.ts';
import { SocialIdentity } from '../../entities/social-identity.ts';
import { User } from '../../entities/user.ts';
import { AppError, validate } from '../../errors/index.ts';
import { hit, peek, reset } from '../throttle/counter.ts';
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

const emailKey = (email: string) =>
  `signin:email:${createHash('sha256').update(email).digest('hex')}`;
const addressKey = (address: string) => `signin:ip:${address}`;
/** A client address may fail this many times more than one email before it is throttled too. */
const addressFactor = 4;

export async function signUp(em: EntityManager, input: { email: string; password: string }) {
  const email = validate(emailSchema, input.email);
  const passwordHash = await hashPassword(validate(passwordSchema, input.password));
  try {
    return await em.transactional(async (tx) => {
      const account = tx.create(Account, { name: `${email}'s account` });
      return tx.create(User, { account, email, passwordHash });
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
): Promise<User> {
  const email = input.email.trim().toLowerCase();
  const keys = [emailKey(email), addressKey(input.address)];
  const limits = [policy.maxFailures, policy.maxFailures * addressFactor];
  for (const [i, key] of keys.entries()) {
    const state = await peek(em, key);
    if (state.count >= limits[i]!) throw throttled(state.windowEndsAt);
  }
  const user = await em.findOne(User, { email });
  let ok = false;
  if (user?.passwordHash) ok = await verifyPassword(input.password, user.passwordHash);
  else await burnPasswordCheck(input.password);
  if (!ok || !user) {
    const states = await Promise.all(keys.map((key) => hit(em, key, policy.windowSeconds)));
    const locked = states.find((state, i) => state.count >= limits[i]!);
    if (locked) throw throttled(locked.windowEndsAt);
    throw new AppError('invalid_credentials');
  }
  await reset(em, keys[0]!);
  return user;
}

function throttled(until: Date) {
  const retryAfter = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return new AppError('rate_limited', 'Too many failed sign-ins; wait before trying again', {
    retryAfter,
  });
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
 * user with that email, or a new account is created. An unverified email never joins an existing
 * user, which would let anyone who can register that email upstream take the account over.
 */
export async function signInUpstream(em: EntityManager, identity: UpstreamIdentity): Promise<User> {
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
      if (!user) {
        const account = tx.create(Account, { name: `${email}'s account` });
        user = tx.create(User, { account, email, passwordHash: null });
      }
      tx.create(SocialIdentity, { user, issuer: identity.issuer, subject: identity.subject });
      return user;
    });
  } catch (error) {
    // Two first sign-ins racing: the loser signs in as whatever the winner created.
    if (error instanceof UniqueConstraintViolationException) {
      return signInUpstream(em.fork(), identity);
    }
    throw error;
  }
}
