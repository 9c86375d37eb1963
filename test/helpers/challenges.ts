/**
 * Helpers for the challenge-session tests: accounts and principals, a domain context on a running
 * app (optionally with a controllable clock), and senders for each ingest path.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import twilioWebhooks from 'twilio/lib/webhooks/webhooks.js';
import type { App } from '../../src/app.ts';
import type { Principal, Scope } from '../../src/auth/principal.ts';
import { scopes as allScopes } from '../../src/auth/principal.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { newId } from '../../src/entities/base.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';

export const TWILIO_TOKEN = 'test-twilio-auth-token-0123456789';

/** The app with Twilio's webhook enabled (and anything else the test asks for). */
export function startChallengeApp(options: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp({ ...options, env: { TWILIO_AUTH_TOKEN: TWILIO_TOKEN, ...options.env } });
}

export async function createAccount(
  app: App,
  tier: 'free' | 'per_session' | 'enterprise' = 'per_session',
): Promise<string> {
  const id = newId('acc');
  await app.db.orm.em
    .fork()
    .execute(
      'insert into account (id, created_at, updated_at, name, tier) values (?, now(), now(), ?, ?)',
      [id, `test account ${id}`, tier],
    );
  // Its person has verified their email, as every account that may act (claim agents, create
  // keys and webhook endpoints) has.
  await app.db.orm.em.fork().execute(
    `insert into app_user (id, created_at, updated_at, account_id, email, email_verified_at)
       values (?, now(), now(), ?, ?, now())`,
    [newId('usr'), id, `owner-${id}@example.test`],
  );
  return id;
}

export function principalFor(
  accountId: string,
  options: { credentialId?: string; scopes?: readonly Scope[]; kind?: Principal['kind'] } = {},
): Principal {
  const credentialId = options.credentialId ?? newId('key');
  return {
    kind: options.kind ?? 'api_key',
    accountId,
    credentialId,
    agentId: credentialId,
    scopes: new Set(options.scopes ?? allScopes),
  };
}

/**
 * A clock tests move by hand. Its `after` (the domain's timer on the injected clock) does not
 * sleep: it moves the clock forward by the delay and fires on the next turn of the event loop.
 */
export class TestClock {
  current: Date;
  /** Delays `after` was asked for, in order (what a wait held for). */
  readonly held: number[] = [];
  constructor(start = new Date()) {
    this.current = new Date(start);
  }
  now = () => new Date(this.current);
  advance(seconds: number) {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
  after = (ms: number, callback: () => void) => {
    this.held.push(ms);
    const timer = setImmediate(() => {
      this.current = new Date(this.current.getTime() + ms);
      callback();
    });
    return () => clearImmediate(timer);
  };
}

/** A fresh domain context on the app, with the app's clock unless one is given. */
export function ctxOf(app: App, clock?: TestClock): DomainContext {
  return {
    ...app.challenges,
    em: app.db.orm.em.fork() as EntityManager,
    ...(clock ? { clock: clock.now, after: clock.after } : {}),
  };
}

export interface TwilioSms {
  to: string;
  body: string;
  from?: string;
  sid?: string;
}

export function twilioParams(sms: TwilioSms): Record<string, string> {
  return {
    AccountSid: 'AC00000000000000000000000000000000',
    ApiVersion: '2010-04-01',
    Body: sms.body,
    From: sms.from ?? '+14155550100',
    MessageSid: sms.sid ?? `SM${newId('x').slice(2, 34)}`,
    NumMedia: '0',
    To: sms.to,
  };
}

/** Posts an SMS to the Twilio webhook as Twilio would, signed with `token`. */
export function postTwilio(baseUrl: string, sms: TwilioSms, token = TWILIO_TOKEN) {
  const params = twilioParams(sms);
  const signature = twilioWebhooks.getExpectedTwilioSignature(
    token,
    `${baseUrl}/ingest/sms/twilio`,
    params,
  );
  return fetch(`${baseUrl}/ingest/sms/twilio`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature,
    },
    body: new URLSearchParams(params).toString(),
  });
}

export async function countRows(app: App, table: string, where = 'true', params: unknown[] = []) {
  const [row] = await app.db.orm.em
    .fork()
    .execute<{ n: number }[]>(`select count(*)::int as n from ${table} where ${where}`, params);
  return row!.n;
}

/** Resolves with the error a promise rejects with (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<{
  code?: string;
  status?: number;
  retryAfter?: number;
  extra?: Record<string, unknown>;
  message: string;
}> {
  try {
    await promise;
  } catch (error) {
    return error as never;
  }
  throw new Error('expected the operation to be refused, but it succeeded');
}

/**
 * Resolves once `count` waits on `app` watch `address` (registered for a hand-off, listening for
 * the session's events), so a test sends its message after the waiters are in place instead of
 * sleeping and hoping they are. Call it before starting the waits; the registry stays real (its
 * `watch` runs as always, this only observes the calls).
 */
export function watching(app: App, address: string, count = 1): Promise<void> {
  const registry = app.challenges.waiters;
  const watch = registry.watch;
  let seen = 0;
  return new Promise((resolve) => {
    registry.watch = (waiter, at) => {
      watch.call(registry, waiter, at);
      if (at !== address || ++seen < count) return;
      registry.watch = watch;
      resolve();
    };
  });
}

/**
 * Resolves once a subscription to `account:<accountId>` on `app` is listening (its first `next`
 * registered the listener), so a test publishes after a GraphQL subscriber (SSE, WebSocket) is in
 * place instead of sleeping. Call it before subscribing; the bus stays real, this only observes.
 */
export function subscribedToAccount(app: App, accountId: string): Promise<void> {
  type Subscribe = (...args: unknown[]) => AsyncIterableIterator<unknown>;
  const pubsub = app.challenges.events.pubsub as unknown as { subscribe: Subscribe };
  const subscribe = pubsub.subscribe;
  return new Promise((resolve) => {
    pubsub.subscribe = (...args) => {
      const iterator = subscribe.apply(pubsub, args);
      if (args[0] !== 'account' || args[1] !== accountId) return iterator;
      pubsub.subscribe = subscribe;
      const next = iterator.next;
      iterator.next = (...nextArgs) => {
        const result = next.apply(iterator, nextArgs);
        resolve();
        return result;
      };
      return iterator;
    };
  });
}
