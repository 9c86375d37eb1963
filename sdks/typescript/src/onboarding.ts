/**
 * Agent onboarding (the service_auth registration of docs/agent-guide.md): `register()` asks the
 * service for a claim, the person named by `claimEmail` enters the user code on the console, and
 * `claim()` polls the claim grant at the service's `interval` until they did. The client it returns
 * holds the identity assertion and re-mints its access token with the jwt-bearer grant (RFC 7523)
 * before the token expires, and once more if the service answers `401`. The assertion and tokens
 * live only in memory: the SDK never logs or writes them.
 */
import { LatchkeyError } from './errors.ts';
import { type Credentials, type Fetch, read, realSleep } from './http.ts';

const claimGrant = 'urn:latchkey:agent-auth:grant-type:claim';
const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface RegisterOptions {
  /** The email of the person who will claim the agent (they must have a verified account). */
  claimEmail: string;
  /** A name for the agent, sent as its User-Agent so the service's logs can tell agents apart. */
  name: string;
  baseUrl?: string;
  /** Space-separated scopes to ask for beyond the defaults (e.g. `keys:manage`). */
  scope?: string;
  fetch?: Fetch;
  sleep?: (ms: number) => Promise<void>;
}

export interface Registration {
  registrationId: string;
  /** The code the person types on the console. */
  userCode: string;
  /** The console page where the person enters it. */
  verificationUri: string;
  /** Seconds between polls, as the service asks. */
  interval: number;
  expiresIn: number;
  /** Polls until the person claimed the agent; resolves to a client acting for that account. */
  claim(): Promise<import('./client.ts').Latchkey>;
}

interface TokenAnswer {
  access_token: string;
  expires_in: number;
  identity_assertion?: string;
}

type MakeClient = (options: {
  baseUrl: string;
  fetch?: Fetch;
  credentials: Credentials;
}) => import('./client.ts').Latchkey;

export async function register(
  options: RegisterOptions,
  makeClient: MakeClient,
): Promise<Registration> {
  const baseUrl = (
    options.baseUrl ??
    process.env.LATCHKEY_BASE_URL ??
    'https://api.latchkey.dev'
  ).replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = options.sleep ?? realSleep;
  const userAgent = `latchkey-sdk-typescript (${options.name.replace(/[^\x20-\x7e]/g, '?')})`;
  const post = async (path: string, init: { json?: unknown; form?: Record<string, string> }) =>
    read(
      await doFetch(`${baseUrl}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'user-agent': userAgent,
          accept: 'application/json',
          'content-type': init.json ? 'application/json' : 'application/x-www-form-urlencoded',
        },
        body: init.json ? JSON.stringify(init.json) : new URLSearchParams(init.form).toString(),
      }),
    );
  const answer = (await post('/agent/identity', {
    json: {
      type: 'service_auth',
      login_hint: options.claimEmail,
      ...(options.scope ? { scope: options.scope } : {}),
    },
  })) as {
    registration_id: string;
    claim_token: string;
    claim: { user_code: string; verification_uri: string; interval: number; expires_in: number };
  };

  const token = (form: Record<string, string>) =>
    post('/oauth2/token', { form }) as Promise<TokenAnswer>;

  return {
    registrationId: answer.registration_id,
    userCode: answer.claim.user_code,
    verificationUri: answer.claim.verification_uri,
    interval: answer.claim.interval,
    expiresIn: answer.claim.expires_in,
    async claim() {
      let interval = answer.claim.interval;
      const giveUpAt = Date.now() + answer.claim.expires_in * 1000;
      let claimed: TokenAnswer | undefined;
      while (!claimed) {
        await sleep(interval * 1000);
        try {
          claimed = await token({ grant_type: claimGrant, claim_token: answer.claim_token });
        } catch (error) {
          if (!(error instanceof LatchkeyError)) throw error;
          if (error.code === 'slow_down') interval += 5;
          else if (error.code !== 'authorization_pending') throw error;
          if (Date.now() > giveUpAt) throw error;
        }
      }
      const assertion = claimed.identity_assertion;
      if (!assertion)
        throw new LatchkeyError('The claim answer carried no identity assertion', {
          status: 200,
          code: 'invalid_response',
        });
      let current = claimed;
      let expiresAt = Date.now() + current.expires_in * 1000;
      // Re-mint a little before expiry: a tenth of the lifetime, at most a minute, so a request
      // in flight never carries a token that expires on the way.
      const margin = () => Math.min(60_000, (current.expires_in * 1000) / 10);
      let minting: Promise<void> | undefined;
      const remint = () => {
        minting ??= token({ grant_type: jwtBearer, assertion })
          .then((fresh) => {
            current = fresh;
            expiresAt = Date.now() + fresh.expires_in * 1000;
          })
          .finally(() => {
            minting = undefined;
          });
        return minting;
      };
      const credentials: Credentials = {
        async headers() {
          if (Date.now() >= expiresAt - margin()) await remint();
          return { authorization: `Bearer ${current.access_token}`, 'user-agent': userAgent };
        },
        async onUnauthorized() {
          await remint();
          return true;
        },
      };
      return makeClient({ baseUrl, fetch: options.fetch, credentials });
    },
  };
}
