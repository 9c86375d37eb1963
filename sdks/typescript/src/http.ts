/**
 * The one place the SDK talks HTTP: credentials on every request, problem+json turned into
 * `LatchkeyError`, `429` retried after `Retry-After`, and a lost answer retried only where a repeat
 * is safe (reads, and writes that carry an `Idempotency-Key`). Redirects are never followed: an
 * API key sent in `x-api-key` would otherwise travel to wherever a redirect points.
 */
import { LatchkeyError } from './errors.ts';

export type Fetch = typeof fetch;

export interface Credentials {
  /** Headers that authenticate a request; called before each one (tokens may be re-minted). */
  headers(): Promise<Record<string, string>>;
  /** A `401` was answered: refresh if possible and say whether a retry is worthwhile. */
  onUnauthorized?(): Promise<boolean>;
}

export interface HttpOptions {
  baseUrl: string;
  credentials: Credentials;
  fetch: Fetch;
  /** Retries of a `429` (after its `Retry-After`) and of a lost answer; default 3. */
  maxRetries: number;
  /** The longest `Retry-After` (seconds) the SDK waits out by itself; longer ones are thrown. */
  maxRetryAfter: number;
  sleep: (ms: number) => Promise<void>;
}

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface RequestInit {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string;
}

export class Http {
  readonly options: HttpOptions;

  constructor(options: HttpOptions) {
    this.options = options;
  }

  async request<T>(method: string, path: string, init: RequestInit = {}): Promise<T> {
    const url = new URL(path, this.options.baseUrl);
    for (const [name, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const safeToRepeat = method === 'GET' || init.idempotencyKey !== undefined;
    let reauthenticated = false;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = {
        accept: 'application/json',
        ...(await this.options.credentials.headers()),
      };
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
      let response: Response;
      try {
        response = await this.options.fetch(url, {
          method,
          headers,
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          redirect: 'manual',
        });
      } catch (error) {
        if (safeToRepeat && attempt < this.options.maxRetries) continue;
        throw new LatchkeyError(`Could not reach Latchkey at ${url.origin}: ${String(error)}`, {
          status: 0,
          code: 'network_error',
        });
      }
      if (response.status === 401 && !reauthenticated && this.options.credentials.onUnauthorized) {
        reauthenticated = true;
        if (await this.options.credentials.onUnauthorized()) {
          attempt--;
          continue;
        }
      }
      if (response.status === 429 && attempt < this.options.maxRetries) {
        const retryAfter = Number(response.headers.get('retry-after') ?? '1');
        if (Number.isFinite(retryAfter) && retryAfter <= this.options.maxRetryAfter) {
          await response.body?.cancel();
          await this.options.sleep(Math.max(0, retryAfter) * 1000);
          continue;
        }
      }
      return (await read(response)) as T;
    }
  }
}

export async function read(response: Response): Promise<unknown> {
  if (response.status >= 300 && response.status < 400) {
    throw new LatchkeyError(
      `Latchkey answered a redirect (${response.status}); the SDK does not follow redirects with credentials. Check the base URL.`,
      { status: response.status, code: 'unexpected_redirect' },
    );
  }
  const text = await response.text();
  let body: Record<string, unknown> | undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (response.ok) return body;
  const retryAfter = response.headers.get('retry-after');
  const code =
    typeof body?.code === 'string'
      ? body.code
      : typeof body?.error === 'string'
        ? body.error
        : 'http_error';
  const detail =
    typeof body?.detail === 'string'
      ? body.detail
      : typeof body?.error_description === 'string'
        ? body.error_description
        : undefined;
  throw new LatchkeyError(
    `Latchkey answered ${response.status} ${code}${detail ? `: ${detail}` : ''}`,
    {
      status: response.status,
      code,
      retryAfter: retryAfter === null ? undefined : Number(retryAfter),
      detail,
    },
  );
}
