/**
 * The principal: who is calling a resource face (/v1, /mcp, /graphql and its WebSocket), resolved
 * from a Bearer access token or an `x-api-key`. Domain operations take a principal, never a raw
 * credential; limits and usage are counted against `credentialId`.
 */
export const scopes = [
  'sessions:write',
  'sessions:read',
  'otp:read',
  'usage:read',
  'keys:manage',
  'webhooks:manage',
  'authenticators:manage',
] as const;
export type Scope = (typeof scopes)[number];

/**
 * Granted to a claimed agent unless it asked for more; `keys:manage`, `webhooks:manage` and
 * `authenticators:manage` only when requested at registration.
 */
export const defaultAgentScopes: readonly Scope[] = [
  'sessions:write',
  'sessions:read',
  'otp:read',
  'usage:read',
];

export interface Principal {
  /** `console`: a person's console session, read-only, for the dashboard's live stream. */
  kind: 'agent' | 'api_key' | 'console';
  /** The tenant: every read and write is confined to it. */
  accountId: string;
  /** The registration id (`reg_…`) for an agent, the key id (`key_…`) for an API key. */
  credentialId: string;
  /** What sessions record as `agent_id`: the registration id, or the key id for API keys. */
  agentId: string;
  scopes: ReadonlySet<Scope>;
  /**
   * The credentials whose revocation ends this caller (src/auth/revocation.ts): for an agent its
   * registration and the handle of the very access token (`tok_…`); for an API key the key, the
   * key that minted it and the registration it derives from. Absent: `credentialId` alone.
   */
  lineage?: readonly string[];
}

export const hasScope = (principal: Principal, scope: Scope) => principal.scopes.has(scope);
