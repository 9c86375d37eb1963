/**
 * Where webhooks may go (server-side request forgery guard).
 *
 * A customer names a URL and we POST to it from inside our network, so the URL must not reach
 * our own loopback, private networks, link-local addresses (which include the cloud metadata
 * service at 169.254.169.254), carrier-grade NAT, or any reserved or translated range that can
 * embed one of those (6to4, Teredo, NAT64, IPv4-mapped IPv6). Only globally routable unicast
 * passes, as classified by ipaddr.js — no hand-written CIDR tables.
 *
 * Two checks: at creation, the URL's shape (https, no credentials, not an IP literal or
 * `localhost` name that is refused anyway); at delivery, every address the host name resolves to,
 * through the socket's own `lookup`, so the address connected to is the address checked (no DNS
 * rebinding between check and connect). Redirects are never followed (sender.ts).
 * WEBHOOK_ALLOW_PRIVATE=true lifts both checks and allows `http` (development and tests).
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../../errors/index.ts';

export const MAX_URL_LENGTH = 2048;

/** True when `address` (v4 or v6, IPv4-mapped unwrapped) is globally routable unicast. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

const refused = (detail: string) =>
  new AppError('webhook_target_not_allowed', detail, { extra: { field: 'url' } });

/** Parses and checks an endpoint URL at creation; returns its normalised form. */
export function checkEndpointUrl(raw: string, allowPrivate: boolean): string {
  if (raw.length > MAX_URL_LENGTH) {
    throw new AppError('invalid_request', `url: at most ${MAX_URL_LENGTH} characters`, {
      extra: { field: 'url' },
    });
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('invalid_request', 'url: not an absolute URL', { extra: { field: 'url' } });
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw refused('Webhook URLs must use https');
  }
  if (url.username || url.password) {
    throw new AppError('invalid_request', 'url: credentials in the URL are not accepted', {
      extra: { field: 'url' },
    });
  }
  if (url.hash) {
    throw new AppError('invalid_request', 'url: a fragment is not sent; remove it', {
      extra: { field: 'url' },
    });
  }
  if (!allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !isPublicAddress(host)) {
      throw refused('Webhook URLs must not point at loopback, private or link-local addresses');
    }
    if (host === 'localhost' || host.endsWith('.localhost')) {
      throw refused('Webhook URLs must not point at this machine');
    }
  }
  return url.toString();
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that resolves as usual, then refuses the connection when any
 * address is not public (a name that resolves to both is refused: we cannot choose for the OS).
 */
export function guardedLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: LookupCallback,
) {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad || addresses.length === 0) {
      const refusal: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to a non-public address`,
      );
      refusal.code = 'EWEBHOOKBLOCKED';
      return callback(refusal, []);
    }
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/** Whether a literal-IP URL host may be connected to (lookup is skipped for IP literals). */
export function literalHostAllowed(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return !net.isIP(host) || isPublicAddress(host);
}
