/**
 * The Latchkey client: every /v1 operation an agent needs, with the wire types generated from the
 * service's OpenAPI document (src/openapi.ts). Hand-written here is only what a person reads:
 * credentials from the constructor or the environment, waits that chain past the service's
 * 300 s limit and raise `OtpTimeoutError`, paging, and idempotent opens.
 */
import { randomUUID } from 'node:crypto';
import { OtpTimeoutError } from './errors.ts';
import { type Credentials, type Fetch, Http, realSleep } from './http.ts';
import { type RegisterOptions, type Registration, register } from './onboarding.ts';
import type { operations } from './openapi.ts';

type Json<Op extends keyof operations, Status extends number = 200> = operations[Op] extends {
  responses: { [S in Status]: { content: { 'application/json': infer T } } };
}
  ? T
  : never;
// A body the OpenAPI document marks optional is `requestBody?:` in the generated types.
type Body<Op extends keyof operations> =
  NonNullable<operations[Op]['requestBody']> extends {
    content: { 'application/json': infer T };
  }
    ? T
    : never;

export type Session = Json<'openChallenge', 201>;
export type Verdict = Json<'waitForVerdict'>;
export type Message = Json<'getMessages'>['messages'][number];
export type RerouteResult = Json<'rerouteSession'>;
export type CloseResult = Json<'closeSession'>;
export type Usage = Json<'listUsage'>;
export type UsageSummary = Json<'usageSummary'>;
export type ApiKey = Json<'listApiKeys'>['api_keys'][number];
export type CreatedApiKey = Json<'createApiKey', 201>;
export type WebhookEndpoint = Json<'listWebhookEndpoints'>['webhooks'][number];
export type CreatedWebhookEndpoint = Json<'createWebhookEndpoint', 201>;
/** A stored TOTP enrolment; its secret is sealed by the service and never shown again. */
export type Authenticator = Json<'listAuthenticators'>['authenticators'][number];
export type AuthenticatorInput = Body<'createAuthenticator'>;
/** Who sent an email verdict or message, and whether SPF, DKIM and DMARC authenticate it. */
export type Sender = NonNullable<Verdict['sender']>;
export type Channel = NonNullable<Body<'openChallenge'>['channel']>;

/** The longest wait the service holds one request for (POST /v1/sessions/:id/wait `timeout`). */
const serverWaitLimit = 300;

export interface LatchkeyOptions {
  /** An API key (`lk_…`); default: the `SERVICE_API_KEY` environment variable. */
  apiKey?: string;
  /** An OAuth access token, used when no API key is given. */
  accessToken?: string;
  /** Default: `LATCHKEY_BASE_URL`, else `https://api.latchkey.dev`. */
  baseUrl?: string;
  /** Retries of a `429` and of a lost answer to a repeatable request; default 3. */
  maxRetries?: number;
  /** The longest `Retry-After` in seconds waited out automatically; default 60. */
  maxRetryAfter?: number;
  /** The fetch to use (default: the platform's). */
  fetch?: Fetch;
  /** How to pause (default: a timer); injectable so tests need not sleep. */
  sleep?: (ms: number) => Promise<void>;
  /** @internal the longest single wait request; the service's limit is 300 s. */
  waitLimit?: number;
  /** @internal credentials of a claimed agent (see `register()`). */
  credentials?: Credentials;
}

export interface WaitOptions {
  /** Seconds to wait in all (default 60); longer than 300 s is chained over several requests. */
  timeout?: number;
  /** SMS only: after a timeout, move the session to a new number (billable) before raising. */
  autoReroute?: boolean;
}

const env = (name: string): string | undefined =>
  typeof process === 'undefined' ? undefined : process.env[name] || undefined;

const warnedOrigins = new Set<string>();

export class Latchkey {
  readonly baseUrl: string;
  readonly apiKeys: {
    list(): Promise<ApiKey[]>;
    create(input: Body<'createApiKey'>): Promise<CreatedApiKey>;
    delete(id: string): Promise<void>;
  };
  /**
   * Authenticator-app (TOTP) enrolments, for `channel: "totp"` sessions; needs a credential with
   * `authenticators:manage`. The secret or `otpauth://` URI goes in once and never comes back.
   */
  readonly authenticators: {
    /** Every authenticator of the account, oldest first (all pages). */
    list(): Promise<Authenticator[]>;
    create(input: AuthenticatorInput): Promise<Authenticator>;
    /** Deletes it and erases its secret; its open sessions' waits answer `no_authenticator`. */
    delete(id: string): Promise<void>;
  };
  readonly webhooks: {
    list(): Promise<WebhookEndpoint[]>;
    create(input: Body<'createWebhookEndpoint'>): Promise<CreatedWebhookEndpoint>;
    delete(id: string): Promise<void>;
  };
  readonly #http: Http;
  readonly #waitLimit: number;

  constructor(options: LatchkeyOptions = {}) {
    this.baseUrl = (
      options.baseUrl ??
      env('LATCHKEY_BASE_URL') ??
      'https://api.latchkey.dev'
    ).replace(/\/+$/, '');
    const url = new URL(this.baseUrl);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !loopback && !warnedOrigins.has(url.origin)) {
      warnedOrigins.add(url.origin);
      // Said once per origin and without the credential: a key sent over http can be read on the way.
      console.warn(
        `latchkey: ${url.origin} is not https; credentials will cross the network unencrypted`,
      );
    }
    let credentials = options.credentials;
    if (!credentials) {
      const apiKey = options.apiKey ?? (options.accessToken ? undefined : env('SERVICE_API_KEY'));
      const token = options.accessToken;
      if (!apiKey && !token) {
        throw new TypeError(
          'Latchkey needs an apiKey or accessToken (or SERVICE_API_KEY in the environment)',
        );
      }
      const headers: Record<string, string> = apiKey
        ? { 'x-api-key': apiKey }
        : { authorization: `Bearer ${token}` };
      credentials = { headers: async () => headers };
    }
    this.#http = new Http({
      baseUrl: this.baseUrl,
      credentials,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      maxRetries: options.maxRetries ?? 3,
      maxRetryAfter: options.maxRetryAfter ?? 60,
      sleep: options.sleep ?? realSleep,
    });
    this.#waitLimit = options.waitLimit ?? serverWaitLimit;
    const http = this.#http;
    this.apiKeys = {
      list: async () => (await http.request<Json<'listApiKeys'>>('GET', '/v1/api-keys')).api_keys,
      create: (input) => http.request('POST', '/v1/api-keys', { body: input }),
      delete: async (id) =>
        void (await http.request('DELETE', `/v1/api-keys/${encodeURIComponent(id)}`)),
    };
    this.authenticators = {
      list: async () => {
        const all: Authenticator[] = [];
        let after: string | undefined;
        for (;;) {
          const page = await http.request<Json<'listAuthenticators'>>('GET', '/v1/authenticators', {
            query: { after, limit: 100 },
          });
          all.push(...page.authenticators);
          if (!page.has_more || page.authenticators.length === 0) return all;
          after = page.authenticators[page.authenticators.length - 1]!.id;
        }
      },
      create: (input) => http.request('POST', '/v1/authenticators', { body: input }),
      delete: async (id) =>
        void (await http.request('DELETE', `/v1/authenticators/${encodeURIComponent(id)}`)),
    };
    this.webhooks = {
      list: async () =>
        (await http.request<Json<'listWebhookEndpoints'>>('GET', '/v1/webhooks')).webhooks,
      create: (input) =>
        http.request('POST', '/v1/webhooks', { body: input, idempotencyKey: randomUUID() }),
      delete: async (id) =>
        void (await http.request('DELETE', `/v1/webhooks/${encodeURIComponent(id)}`)),
    };
  }

  /** Agent onboarding: see `Registration`. */
  static register(options: RegisterOptions): Promise<Registration> {
    return register(options, (o) => new Latchkey(o));
  }

  /**
   * Opens a challenge session (billable). Sent with an `Idempotency-Key`, so a retry after a lost
   * answer returns the same session and is never billed twice.
   */
  openChallenge(input: Body<'openChallenge'> = {}): Promise<Session> {
    return this.#http.request('POST', '/v1/sessions', {
      body: input,
      idempotencyKey: randomUUID(),
    });
  }

  /** Alias of `openChallenge` for an SMS code (`channel: "sms_otp"`). */
  provision(input: Omit<Body<'openChallenge'>, 'channel'> = {}): Promise<Session> {
    return this.openChallenge({ ...input, channel: 'sms_otp' });
  }

  /**
   * Waits for the session's verdict (a code, a magic link, or `webauthn_required`) and consumes
   * it. Raises `OtpTimeoutError` when none arrives within `timeout` seconds.
   */
  async waitForVerdict(sessionId: string, options: WaitOptions = {}): Promise<Verdict> {
    const timeout = options.timeout ?? 60;
    const deadline = Date.now() + timeout * 1000;
    const path = `/v1/sessions/${encodeURIComponent(sessionId)}/wait`;
    for (;;) {
      const remaining = Math.max(0, (deadline - Date.now()) / 1000);
      const verdict = await this.#http.request<Verdict>('POST', path, {
        body: { timeout: Math.min(remaining, this.#waitLimit) },
      });
      if (verdict.verdict !== 'timeout') return verdict;
      if (deadline - Date.now() > 0) continue;
      if (!options.autoReroute) throw new OtpTimeoutError(sessionId, verdict.next_step);
      const moved = await this.reroute(sessionId);
      throw new OtpTimeoutError(sessionId, moved.next_step, {
        status: 'carrier_retry_required',
        sessionId,
        newNumber: moved.number,
        previousNumber: moved.previous_number,
        expiresAt: moved.expires_at,
      });
    }
  }

  /** Alias of `waitForVerdict`, the SMS wait of older integrations. */
  waitForOtp(sessionId: string, options: WaitOptions = {}): Promise<Verdict> {
    return this.waitForVerdict(sessionId, options);
  }

  getSession(sessionId: string): Promise<Session> {
    return this.#http.request('GET', `/v1/sessions/${encodeURIComponent(sessionId)}`);
  }

  /** Every message of the session (all pages). Reading codes consumes them. */
  async getMessages(sessionId: string): Promise<Message[]> {
    const messages: Message[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.#http.request<Json<'getMessages'>>(
        'GET',
        `/v1/sessions/${encodeURIComponent(sessionId)}/messages`,
        { query: { after, limit: 100 } },
      );
      messages.push(...page.messages);
      if (!page.has_more || page.messages.length === 0) return messages;
      after = page.messages[page.messages.length - 1]!.message_id;
    }
  }

  closeSession(sessionId: string): Promise<CloseResult> {
    return this.#http.request('DELETE', `/v1/sessions/${encodeURIComponent(sessionId)}`);
  }

  /** Moves an sms_otp session onto a new number (billable; idempotent like an open). */
  reroute(sessionId: string): Promise<RerouteResult> {
    return this.#http.request('POST', `/v1/sessions/${encodeURIComponent(sessionId)}/reroute`, {
      idempotencyKey: randomUUID(),
    });
  }

  /** Every unexpired active session of the account, oldest first, fetching page after page. */
  async *listSessions(options: { pageSize?: number } = {}): AsyncGenerator<Session> {
    let after: string | undefined;
    for (;;) {
      const page = await this.#http.request<Json<'listSessions'>>('GET', '/v1/sessions', {
        query: { after, limit: options.pageSize ?? 100 },
      });
      yield* page.sessions;
      if (!page.has_more || page.sessions.length === 0) return;
      after = page.sessions[page.sessions.length - 1]!.session_id;
    }
  }

  usage(query: operations['listUsage']['parameters']['query'] = {}): Promise<Usage> {
    return this.#http.request('GET', '/v1/usage', { query });
  }

  usageSummary(
    query: operations['usageSummary']['parameters']['query'] = {},
  ): Promise<UsageSummary> {
    return this.#http.request('GET', '/v1/usage/summary', { query });
  }
}
