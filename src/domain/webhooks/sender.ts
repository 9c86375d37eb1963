/**
 * One delivery attempt: a Standard Webhooks POST (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) signed with the `standardwebhooks` library — one `v1,…` signature per
 * valid secret, space-separated, while a rotated secret is in its grace period.
 *
 * Through node:http(s) rather than fetch: it never follows redirects, and its `lookup` hook lets
 * the SSRF guard check the very address the socket connects to. The whole attempt (connect, TLS,
 * response headers and the first bytes of the body) has one deadline; only a short excerpt of the
 * response body is read and kept, the rest is discarded unread.
 */
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, literalHostAllowed } from './target-guard.ts';

export const RESPONSE_EXCERPT_BYTES = 256;

export interface SignedMessage {
  id: string;
  timestamp: Date;
  body: string;
  /** The valid secrets (`whsec_…`), current first. */
  secrets: string[];
}

export type AttemptOutcome =
  | { ok: true; statusCode: number; excerpt: string }
  | {
      ok: false;
      kind: 'http_error' | 'network_error' | 'timeout' | 'blocked' | 'aborted';
      statusCode: number | null;
      error: string;
      excerpt: string | null;
    };

export function signatureHeader(message: SignedMessage): string {
  return message.secrets
    .map((secret) => new Webhook(secret).sign(message.id, message.timestamp, message.body))
    .join(' ');
}

export interface SenderAgents {
  'http:': http.Agent;
  'https:': https.Agent;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  userAgent: string;
  agents: SenderAgents;
  /** Aborts the attempt (shutdown): it resolves as `aborted` and is not counted. */
  signal?: AbortSignal;
}

/** Keep-alive agents, one pair per worker: a busy endpoint reuses its connections. */
export function createSenderAgents(maxSockets: number): SenderAgents {
  return {
    'http:': new http.Agent({ keepAlive: true, maxSockets, timeout: 30_000 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets, timeout: 30_000 }),
  };
}

export function sendSigned(
  target: string,
  message: SignedMessage,
  options: SenderOptions,
): Promise<AttemptOutcome> {
  const url = new URL(target);
  if (!options.allowPrivate && (url.protocol !== 'https:' || !literalHostAllowed(url))) {
    return Promise.resolve({
      ok: false,
      kind: 'blocked',
      statusCode: null,
      error: 'target address not allowed',
      excerpt: null,
    });
  }
  const transport = url.protocol === 'https:' ? https : http;
  const body = Buffer.from(message.body, 'utf8');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const request = transport.request(
      url,
      {
        method: 'POST',
        agent: options.agents[url.protocol as 'http:' | 'https:'],
        ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': options.userAgent,
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
          'webhook-signature': signatureHeader(message),
        },
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const excerpt = Buffer.concat(chunks)
            .subarray(0, RESPONSE_EXCERPT_BYTES)
            .toString('utf8');
          // Whatever is left is not read: a hostile receiver cannot make us buffer it.
          response.destroy();
          if (statusCode >= 200 && statusCode < 300) finish({ ok: true, statusCode, excerpt });
          else
            finish({
              ok: false,
              kind: 'http_error',
              statusCode,
              error: `HTTP ${statusCode}`,
              excerpt,
            });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const deadline = setTimeout(() => {
      request.destroy();
      finish({
        ok: false,
        kind: 'timeout',
        statusCode: null,
        error: `no answer within ${options.timeoutMs} ms`,
        excerpt: null,
      });
    }, options.timeoutMs);
    const onAbort = () => {
      request.destroy();
      finish({ ok: false, kind: 'aborted', statusCode: null, error: 'aborted', excerpt: null });
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('close', () => options.signal?.removeEventListener('abort', onAbort));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const blocked = error.code === 'EWEBHOOKBLOCKED';
      finish({
        ok: false,
        kind: blocked ? 'blocked' : 'network_error',
        statusCode: null,
        error: blocked ? 'target address not allowed' : (error.code ?? 'network error'),
        excerpt: null,
      });
    });
    request.end(body);
  });
}
