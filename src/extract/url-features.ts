/**
 * Evidence read from a URL alone: is it built like a one-time sign-in or verification link?
 *
 * For: sign-in/verify words in the path or parameter names (from every language table), a
 * one-time token (a long random path segment or a `token=`-style parameter).
 * Against: no token at all (a sign-in link without one cannot sign anybody in), unsubscribe /
 * privacy / help / settings / order-tracking / shop / password-reset paths, app-store and social
 * hosts, the bare home page (logo links), images, and click-tracking redirects (which hide the real
 * destination; a plainly written real link is preferred over them).
 * Invariant: never throws; unparseable or non-http(s) URLs come back with `ok: false`.
 */
import type { Evidence } from './evidence.ts';
import { URL_AUTH_WORDS } from './lexicon.ts';

export interface UrlFacts {
  readonly ok: boolean;
  readonly tracker: boolean;
  /** Carries sign-in/verify words or a one-time token. */
  readonly authLike: boolean;
  readonly evidence: readonly Evidence[];
}

const AVOID_WORDS = new Set([
  'unsubscribe',
  'unsub',
  'optout',
  'opt-out',
  'privacy',
  'terms',
  'legal',
  'help',
  'support',
  'faq',
  'contact',
  'settings',
  'preferences',
  'preference',
  'notifications',
  'notification',
  'manage',
  'track',
  'tracking',
  'trace',
  'order',
  'orders',
  'shipment',
  'shipping',
  'delivery',
  'statement',
  'statements',
  'invoice',
  'receipt',
  'sale',
  'shop',
  'store',
  'deals',
  'deal',
  'offer',
  'offers',
  'promo',
  'promotions',
  'download',
  'webview',
  'view-in-browser',
  'browser',
  'activity',
  'reset',
  'password',
  'report',
  'feedback',
  'survey',
  'review',
  'reviews',
  'rate',
  'rating',
  'ratings',
  'blog',
  'news',
  'careers',
  'about',
  'pay',
  'billing',
  'cart',
  'checkout',
  'unsubscribe-all',
  'email-preferences',
]);
const AVOID_HOSTS = [
  'apps.apple.com',
  'itunes.apple.com',
  'play.google.com',
  'facebook.com',
  'fb.com',
  'twitter.com',
  'x.com',
  'instagram.com',
  'linkedin.com',
  'youtube.com',
  'youtu.be',
  'tiktok.com',
  'pinterest.com',
  'snapchat.com',
  'reddit.com',
  'wa.me',
  't.me',
  'maps.google.com',
  'appgallery.huawei.com',
];
const TRACKER_HOSTS = [
  'sendgrid.net',
  'list-manage.com',
  'mandrillapp.com',
  'hubspotlinks.com',
  'mailgun.org',
  'sparkpostmail.com',
  'awstrack.me',
  'rs6.net',
  'exacttarget.com',
  'mcsv.net',
  'mailchi.mp',
  'safelinks.protection.outlook.com',
  'urldefense.com',
  'cmail19.com',
  'cmail20.com',
];
const TRACKER_LABELS = new Set([
  'click',
  'clicks',
  'links',
  'link',
  'track',
  'tracking',
  'trk',
  'email',
  'em',
  'e',
  'go',
  'r',
  'url',
  'ablink',
  't',
  'mail',
  'l',
  'lnk',
  'email-link',
  'emaillink',
  'redirect',
  'ct',
]);
const TOKEN_KEYS = new Set([
  'token',
  't',
  'key',
  'code',
  'otp',
  'jeton',
  'auth',
  'sig',
  'signature',
  'hash',
  'nonce',
  'ticket',
  'magic',
  'k',
  'login_token',
  'access_token',
  'confirmation_token',
  'verification_token',
  'email_token',
  'oobcode',
  'codigo',
  'codice',
  'kod',
  'tok',
  'session',
  'st',
]);
const IMAGE = /\.(png|gif|jpe?g|svg|webp|ico|bmp)$/i;

function hostMatches(host: string, domains: readonly string[]): boolean {
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/**
 * Letters only, both cases, in runs too short to be words (`zzOdVoHenjQh`, `LTuDzJDypA`,
 * `XBbTFYXD`): generated. A base62 or base64url token of 8-12 characters has no digit about a
 * tenth of the time; CamelCase words (`VerifyEmail`, `MyAccount`) have runs of three letters and
 * more.
 */
function generatedLetters(s: string): boolean {
  if (!/^[A-Za-z]+$/.test(s) || !/[a-z]/.test(s) || !/[A-Z]/.test(s)) return false;
  const runs = s.match(/[A-Z]+[a-z]*|[a-z]+/g) ?? [];
  return (
    (runs.length >= 3 && s.length / runs.length < 3.5) || (s.length >= 8 && /[A-Z]{4}/.test(s))
  );
}

/** Looks generated: long, letters and digits mixed, or many case/kind changes. */
export function isRandomToken(s: string): boolean {
  if (s.length < 8 || !/^[A-Za-z0-9_\-.~=%+]+$/.test(s)) return false;
  const letters = (s.match(/[A-Za-z]/g) ?? []).length;
  const digits = (s.match(/\d/g) ?? []).length;
  if (digits === 0 && letters === s.length)
    return s.length >= 20 ? /[a-z]/.test(s) && /[A-Z]/.test(s) : generatedLetters(s);
  if (letters === 0 || digits === 0) return false;
  if (s.length >= 20) return true;
  const mixedCase = /[a-z]/.test(s) && /[A-Z]/.test(s);
  const changes = (s.match(/[A-Za-z]+|\d+/g) ?? []).length;
  return mixedCase || changes >= 4;
}

/** A short opaque id: 5–12 letters and digits, both present (`a8Kd2`, `P2kQ9x`), or generated letters. */
export function isShortToken(s: string): boolean {
  return (
    (/^[A-Za-z0-9]{5,12}$/.test(s) && /\d/.test(s) && /[A-Za-z]/.test(s)) ||
    (s.length >= 6 && s.length <= 12 && generatedLetters(s))
  );
}

/** Upper case, lower case and digits all in one short id (`Zx9q`, `Lp83Qz`): generated, not a word. */
function isBase62Id(s: string, min: number): boolean {
  return (
    s.length >= min &&
    s.length <= 12 &&
    /^[A-Za-z0-9]+$/.test(s) &&
    /\d/.test(s) &&
    /[a-z]/.test(s) &&
    /[A-Z]/.test(s)
  );
}

export function urlFacts(raw: string): UrlFacts {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, tracker: false, authLike: false, evidence: [] };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, tracker: false, authLike: false, evidence: [] };
  }
  const evidence: Evidence[] = [];
  const host = url.hostname.toLowerCase();
  const path = url.pathname;
  const segments = path.split('/').filter((s) => s !== '');
  const keys: string[] = [];
  const values: string[] = [];
  for (const [k, v] of url.searchParams) {
    keys.push(k.toLowerCase());
    values.push(v);
  }
  const words = new Set<string>();
  for (const part of [...segments.map((s) => s.toLowerCase()), ...keys]) {
    words.add(part);
    for (const w of part.split(/[-_.~+]/)) if (w !== '') words.add(w);
  }
  const label = host.split('.')[0] ?? '';
  const tracker =
    hostMatches(host, TRACKER_HOSTS) ||
    (TRACKER_LABELS.has(label) &&
      (/(^|\/)(click|clicks|track|redirect|ls|wf|c|r|l)(\/|$)/i.test(path) ||
        keys.some((k) => ['u', 'url', 'redirect', 'target', 'link', 'r', 'q', 'upn'].includes(k))));
  if (tracker) evidence.push({ weight: -1, reason: 'click-tracking redirect' });
  if (hostMatches(host, AVOID_HOSTS))
    evidence.push({ weight: -4, reason: 'app-store or social link' });
  if (IMAGE.test(path)) evidence.push({ weight: -4, reason: 'image' });
  if (segments.length === 0 && keys.length === 0) {
    evidence.push({ weight: -2, reason: 'site home page (logo link)' });
  }
  let authWord = '';
  let avoidWord = '';
  for (const w of words) {
    if (authWord === '' && URL_AUTH_WORDS.has(w)) authWord = w;
    if (avoidWord === '' && AVOID_WORDS.has(w)) avoidWord = w;
  }
  if (authWord !== '')
    evidence.push({ weight: 1.5, reason: `sign-in or verify word in the URL ('${authWord}')` });
  if (avoidWord !== '' && !tracker)
    evidence.push({ weight: -2.5, reason: `URL points at '${avoidWord}'` });
  let token = false;
  keys.forEach((k, i) => {
    const v = values[i]!;
    if (!token && TOKEN_KEYS.has(k) && (isRandomToken(v) || /^\d{6,}$/.test(v))) {
      token = true;
      evidence.push({ weight: 1, reason: `one-time token parameter ('${k}')` });
    }
  });
  if (!token && segments.some(isRandomToken)) {
    token = true;
    evidence.push({ weight: 0.8, reason: 'random token in the path' });
  }
  // Short links (`/s/P2kQ9x`, typical of SMS, where every character costs) carry their one-time
  // token as a short opaque last segment: weaker evidence than a long token, so the words around
  // the link still have to say it signs in.
  const last = segments.at(-1);
  if (!token && last !== undefined && segments.length <= 3 && isShortToken(last)) {
    token = true;
    evidence.push({ weight: 0.6, reason: 'short-link token in the path' });
  }
  // The shortest short links (`spr.example/Zx9q`): four characters, but mixed case and digits.
  if (!token && last !== undefined && segments.length === 1 && isBase62Id(last, 4)) {
    token = true;
    evidence.push({ weight: 0.6, reason: 'short-link token in the path' });
  }
  // A short opaque value under a token key (`?t=Lp83Qz`), or under a one-letter key when it is
  // mixed case with digits (`?c=R7tY2w`): the same weak evidence as a short-link token.
  keys.forEach((k, i) => {
    const v = values[i]!;
    if (token || tracker) return;
    if ((TOKEN_KEYS.has(k) && isShortToken(v)) || (k.length === 1 && isBase62Id(v, 5))) {
      token = true;
      evidence.push({ weight: 0.6, reason: `short token parameter ('${k}')` });
    }
  });
  if (!token && !tracker && values.some(isRandomToken)) {
    token = true;
    evidence.push({ weight: 0.5, reason: 'random value in the query' });
  }
  // A redirect hides its destination, so a missing token says nothing about it.
  // Without a token a link opens a page (a login form at best); it cannot sign anybody in. No
  // expected link of any corpus lacks one, so this outweighs every word said for the link.
  if (!token && !tracker) evidence.push({ weight: -5, reason: 'no one-time token in the URL' });
  return { ok: true, tracker, authLike: authWord !== '' || token, evidence };
}
