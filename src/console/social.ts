/**
 * Sign-in through generic OpenID Connect providers (two configurable slots), as a relying party
 * using openid-client: authorization code flow with PKCE, state and nonce. The per-attempt secrets
 * travel in a short-lived signed HttpOnly cookie, never in the URL.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import type { Config, SocialProviderConfig } from '../config.ts';
import { signInUpstream } from '../domain/accounts/accounts.ts';
import type { User } from '../entities/user.ts';
import { AppError } from '../errors/index.ts';
import { safeReturnTo } from './return-to.ts';

const attemptCookie = 'lk_oidc';
const attemptTtlSeconds = 600;

interface Attempt {
  slot: number;
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

const isLoopback = (url: string) =>
  ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);

export class SocialSignIn {
  readonly #config: Config;
  readonly #prefix: string;
  readonly #discovered = new Map<number, Promise<oidc.Configuration>>();

  constructor(config: Config, prefix: string) {
    this.#config = config;
    this.#prefix = prefix;
  }

  get providers() {
    return this.#config.socialProviders.map(({ slot, name }) => ({ slot, name }));
  }

  #provider(slot: string): SocialProviderConfig {
    const provider = this.#config.socialProviders.find((p) => String(p.slot) === slot);
    if (!provider) throw new AppError('not_found', 'No such identity provider');
    return provider;
  }

  #redirectUri(slot: number) {
    return `${this.#config.consoleUrl}/oidc/${slot}/callback`;
  }

  /** Discovery once per provider; a failed discovery is forgotten so the next attempt retries. */
  #configuration(provider: SocialProviderConfig): Promise<oidc.Configuration> {
    let found = this.#discovered.get(provider.slot);
    if (!found) {
      found = oidc
        .discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, {
          // Plain HTTP only for an issuer on this machine (development and tests).
          execute: isLoopback(provider.issuer) ? [oidc.allowInsecureRequests] : [],
        })
        .catch((error) => {
          this.#discovered.delete(provider.slot);
          throw new AppError('service_unavailable', 'The identity provider cannot be reached', {
            cause: error,
          });
        });
      this.#discovered.set(provider.slot, found);
    }
    return found;
  }

  async start(reply: FastifyReply, slot: string, returnTo: unknown) {
    const provider = this.#provider(slot);
    const configuration = await this.#configuration(provider);
    const attempt: Attempt = {
      slot: provider.slot,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      returnTo: safeReturnTo(this.#prefix, returnTo),
    };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.#redirectUri(provider.slot),
      scope: 'openid email',
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(attempt.verifier),
      code_challenge_method: 'S256',
    });
    reply.setCookie(attemptCookie, JSON.stringify(attempt), {
      path: `${this.#prefix}/oidc`,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.#config.consoleUrl.startsWith('https:'),
      signed: true,
      maxAge: attemptTtlSeconds,
    });
    return reply.redirect(url.href, 303);
  }

  /** Completes the flow; returns the signed-in user and where to send them. */
  async callback(
    request: FastifyRequest,
    reply: FastifyReply,
    slot: string,
    now: Date,
  ): Promise<{ user: User; returnTo: string }> {
    const provider = this.#provider(slot);
    const attempt = this.#readAttempt(request);
    reply.clearCookie(attemptCookie, { path: `${this.#prefix}/oidc` });
    if (!attempt || attempt.slot !== provider.slot) {
      throw new AppError('invalid_request', 'This sign-in attempt has expired; start again');
    }
    const configuration = await this.#configuration(provider);
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(
        configuration,
        new URL(this.#redirectUri(provider.slot) + query),
        {
          pkceCodeVerifier: attempt.verifier,
          expectedState: attempt.state,
          expectedNonce: attempt.nonce,
        },
      );
    } catch (error) {
      request.log.info(
        { err: { name: (error as Error).name, code: (error as { code?: string }).code } },
        'upstream sign-in refused',
      );
      throw new AppError('forbidden', 'The identity provider did not complete the sign-in');
    }
    const claims = tokens.claims();
    if (!claims) throw new AppError('forbidden', 'The identity provider returned no identity');
    // Providers may keep the email out of the ID token and serve it at userinfo instead.
    let profile: Record<string, unknown> = { ...claims };
    if (typeof claims.email !== 'string' && configuration.serverMetadata().userinfo_endpoint) {
      profile = { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)) };
    }
    const user = await signInUpstream(
      request.em,
      {
        issuer: claims.iss,
        subject: claims.sub,
        email: typeof profile.email === 'string' ? profile.email : undefined,
        emailVerified: profile.email_verified === true,
      },
      now,
    );
    return { user, returnTo: attempt.returnTo };
  }

  #readAttempt(request: FastifyRequest): Attempt | null {
    const raw = request.cookies[attemptCookie];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return null;
    try {
      return JSON.parse(unsigned.value) as Attempt;
    } catch {
      return null;
    }
  }
}
