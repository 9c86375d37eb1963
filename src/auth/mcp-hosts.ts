/**
 * MCP hosts (decisions.md "MCP hosts"): the MCP authorization flow, made of oidc-provider's own
 * features, not a hand-written flow:
 *
 * - RFC 7591 dynamic registration, open (MCP hosts register anonymously, so no initial access
 *   token), but only for public clients: `token_endpoint_auth_method: none` is the only client
 *   authentication method the provider knows, and every redirect URI must be `https:` or `http:`
 *   on a loopback address (RFC 8252 §7.3). Registrations are limited per address in
 *   provider-mount.ts.
 * - The authorization code flow with PKCE required, S256 only (oidc-provider 9 knows no `plain`).
 * - RFC 8707 resource indicators: the only resource is PUBLIC_BASE_URL, so the token's audience
 *   is this API and /v1, /graphql and /mcp accept it (credentials.ts compares `aud`).
 * - Login and consent are the console's page `{console_url}/authorize/:uid` (console/authorize-
 *   routes.ts): the person signs in with the console session and approves the requested scopes.
 *   Approving creates an agent registration of type `mcp_host`, claimed into the person's
 *   (verified) account; it is the OAuth subject (`accountId`) of the grant, so the host's tokens
 *   are stored, found and revoked exactly like an agent's (adapter.ts joins the registration) and
 *   the host appears on the agents page with its Disconnect button.
 * - Consent is asked on every authorization: a previous grant is never reused silently (it may
 *   belong to a registration the person has since disconnected). The provider's browser session
 *   lives for one flow only (provider-mount.ts drops it from authorization requests), since its
 *   subject differs per host.
 * - Refresh tokens: stock MCP hosts register for `refresh_token` and use it, so a host that did
 *   gets one with its code. oidc-provider's own rules then apply: a public client's refresh token
 *   is rotated on every use (the used one is consumed; reusing it revokes the grant) and the
 *   rotated ones keep the first one's absolute lifetime (`mcpHostTtl.RefreshToken`, 14 days), so
 *   a host signs the person in again at least every 14 days. Disconnecting the host on the
 *   console makes `findAccount` fail, so its refresh tokens answer `invalid_grant` at once.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type Configuration, errors } from 'oidc-provider';
import type { Config } from '../config.ts';
import { AgentRegistration } from '../entities/agent-registration.ts';
import type { User } from '../entities/user.ts';
import { randomSecret, sha256Hex } from './secrets.ts';

export const mcpHostRegistrationType = 'mcp_host';

const loopbacks = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** RFC 7591 §2 / RFC 8252 §7.3: `https:`, or `http:` only on the host's own machine. */
export function redirectUriAllowed(uri: string): boolean {
  const parsed = URL.parse(uri);
  if (!parsed) return false;
  if (parsed.protocol === 'https:') return true;
  return parsed.protocol === 'http:' && loopbacks.has(parsed.hostname);
}

export const mcpHostRegistration = {
  enabled: true,
  initialAccessToken: false,
  // Registration access tokens would let anyone who registered read and change the client later;
  // hosts register again instead (RFC 7592 is not offered).
  issueRegistrationAccessToken: false,
} as const;

export function mcpHostConfiguration(deps: {
  config: Pick<Config, 'consoleUrl'>;
  orm: MikroORM;
}): Partial<Configuration> {
  return {
    responseTypes: ['code'],
    pkce: { required: () => true },
    interactions: {
      url: (_ctx, interaction) => `${deps.config.consoleUrl}/authorize/${interaction.uid}`,
    },
    // The subject is the registration approved on the console (see the header). A disconnected
    // one is no account: its code and refresh tokens then answer `invalid_grant`.
    findAccount: async (_ctx, sub) =>
      (await liveMcpHostAccount(deps.orm, sub))
        ? { accountId: sub, claims: () => ({ sub }) }
        : undefined,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // A host's token lives its own TTL, not the browser session's: the session's subject changes
    // with the next host the person approves, which would otherwise kill this host's token.
    expiresWithSession: async () => false,
    // Only the grant the console made in this very interaction counts.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    extraClientMetadata: {
      properties: ['redirect_uris'],
      validator: (_ctx, key, value) => {
        if (key !== 'redirect_uris' || !Array.isArray(value)) return;
        for (const uri of value as unknown[]) {
          if (typeof uri !== 'string' || !redirectUriAllowed(uri)) {
            throw new errors.CustomOIDCProviderError(
              'invalid_redirect_uri',
              'redirect_uris must use https, or http on a loopback address (127.0.0.1, [::1], localhost)',
            );
          }
        }
      },
    },
  };
}

/** Lifetimes of the flow's artifacts (seconds); access tokens keep ACCESS_TOKEN_TTL. */
export const mcpHostTtl = {
  /** The person has an hour to sign in and decide. */
  Interaction: 3600,
  /** RFC 6749 §4.1.2 recommends at most 10 minutes; a host exchanges it at once. */
  AuthorizationCode: 60,
  /** The provider's browser session (only used during the flow: consent is asked every time). */
  Session: 3600,
  Grant: 14 * 24 * 3600,
  RefreshToken: 14 * 24 * 3600,
} as const;

async function liveMcpHostAccount(orm: MikroORM, registrationId: string) {
  const rows = await orm.em
    .fork()
    .execute<{ one: number }[]>(
      "select 1 as one from agent_registration where id = ? and type = ? and status = 'claimed'",
      [registrationId, mcpHostRegistrationType],
    );
  return rows.length === 1;
}

/**
 * The tenant of an access token: already on it for the agent grants; for a token from an MCP
 * host's authorization code, the account its registration was claimed into.
 */
export async function mcpHostTokenClaims(
  orm: MikroORM,
  token: { extra?: Record<string, unknown>; accountId?: string },
): Promise<Record<string, unknown> | undefined> {
  if (token.extra || !token.accountId) return token.extra;
  const [row] = await orm.em
    .fork()
    .execute<{ account_id: string }[]>(
      "select account_id from agent_registration where id = ? and type = ? and status = 'claimed'",
      [token.accountId, mcpHostRegistrationType],
    );
  return row ? { account: row.account_id } : undefined;
}

/**
 * The registration an approval creates: claimed at once into the approving person's account,
 * with the granted scopes. Its claim secrets are random digests nobody holds (the claim grant
 * never applies to it); `tokensIssuedAt` is set for the same reason.
 */
export async function approveMcpHost(
  em: EntityManager,
  user: User,
  granted: readonly string[],
  now: Date,
): Promise<AgentRegistration> {
  const unusable = () => sha256Hex(randomSecret('mcp'));
  const registration = em.create(AgentRegistration, {
    type: mcpHostRegistrationType,
    status: 'claimed',
    account: user.account,
    claimedBy: user,
    claimEmail: user.email,
    scope: granted.join(' '),
    claimTokenHash: unusable(),
    claimAttemptTokenHash: unusable(),
    userCodeHash: unusable(),
    failedAttempts: 0,
    lastPolledAt: null,
    codeExpiresAt: now,
    claimTokenExpiresAt: now,
    claimedAt: now,
    tokensIssuedAt: now,
    revokedAt: null,
  });
  await em.flush();
  return registration;
}
