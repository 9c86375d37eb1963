/**
 * The unsupported-target policy: a target (a host name or a URL) is reduced to its registrable
 * domain with the public suffix list (tldts, private suffixes included, so `someone.github.io` is
 * someone's site and not GitHub), then refused when that domain is listed, when its top-level
 * domain admits only banks, or when the operator added it; the operator's allow-list wins.
 *
 * Checked before anything is reserved, so a refusal consumes nothing.
 */
import { parse } from 'tldts';
import { AppError } from '../../errors/index.ts';
import {
  refusedDomains,
  refusedTopLevelDomains,
  type TargetCategory,
  targetCategories,
} from './target-policy-list.ts';

export interface TargetCheck {
  /** The target as normalised for storage: its host name, lower-cased. */
  host: string;
  /** Its registrable domain, or the host itself for an IP address or an unlisted suffix. */
  domain: string;
}

export interface TargetPolicy {
  /** Throws `unsupported_target` or `invalid_request`; returns the normalised target otherwise. */
  check(target: string): TargetCheck;
}

export interface TargetPolicyOptions {
  extra?: readonly string[];
  allow?: readonly string[];
}

const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const hostName = new RegExp(`^(?=.{1,253}$)${label}(?:\\.${label})*$`);

/** The host of a host name or URL, lower-cased, without a trailing dot; null when unparseable. */
export function targetHost(target: string): string | null {
  const trimmed = target.trim();
  if (!trimmed || /\s/.test(trimmed)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/\.$/, '').toLowerCase();
  // A host name (labels of letters, digits and hyphens; IDN already punycoded by URL) or an IPv6
  // literal: what `../../etc` or `.` parse to is no site at all.
  return hostName.test(host) || /^\[[0-9a-f:.]+\]$/.test(host) ? host : null;
}

export function createTargetPolicy(options: TargetPolicyOptions = {}): TargetPolicy {
  const categoryOf = new Map<string, TargetCategory>();
  for (const category of targetCategories) {
    for (const domain of refusedDomains[category]) categoryOf.set(domain, category);
  }
  for (const domain of options.extra ?? []) categoryOf.set(registrable(domain), 'configured');
  const allowed = new Set((options.allow ?? []).map(registrable));

  return {
    check(target) {
      const host = targetHost(target);
      if (!host) {
        throw new AppError('invalid_request', 'target: give a host name or a URL', {
          extra: { field: 'target' },
        });
      }
      const domain = registrable(host);
      if (allowed.has(domain)) return { host, domain };
      const tld = domain.slice(domain.lastIndexOf('.') + 1);
      const category = categoryOf.get(domain) ?? refusedTopLevelDomains[tld];
      if (category) {
        throw new AppError(
          'unsupported_target',
          `Challenges for ${domain} are not supported (${category.replace('_', ' ')})`,
          { extra: { category, domain } },
        );
      }
      return { host, domain };
    },
  };
}

/**
 * The registrable domain of a host (private suffixes count), or the host itself if none; also how
 * sender authentication compares a `From` or a link with the target (issue 21).
 */
export function registrable(host: string): string {
  const parsed = parse(host, { allowPrivateDomains: true });
  if (parsed.isIp || !parsed.domain) return host;
  return parsed.domain;
}
