/**
 * Request ids: an incoming `x-request-id` is kept when it is a plausible id (so a trace can be
 * followed through a proxy), otherwise a fresh UUID is used. The id is echoed on every response.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const plausible = /^[A-Za-z0-9._:-]{8,64}$/;

export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && plausible.test(given) ? given : randomUUID();
}
