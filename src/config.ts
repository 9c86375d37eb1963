/**
 * Configuration: the environment, parsed once at start and validated.
 *
 * Every variable of `docs/spec/decisions.md` lives here with its default. A bad value stops the
 * start with a message naming the variable, never a stack trace from somewhere deeper.
 */
import { Resolver } from 'node:dns';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { z } from 'zod';
import { parseSecretsKey, type SealingKey } from './db/sealing-keys.ts';
import { DEFAULT_SYNTHETIC_POOL, parsePoolSpec } from './domain/numbers/pool-spec.ts';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy.ts';

/**
 * DATABASE_POOL_MAX's default: twice the cores plus one (the sizing Prisma and HikariCP's guide
 * use), at most `pg`'s own 10. Every statement here is short, so a connection serves a thousand
 * or more a second; more connections than that only make more backends compete for the database
 * server's cores. Measured on the 2-core bench machine (PostgreSQL beside the service), 10
 * connections bought nothing: 727 open+close pairs/s and a burst p99 of 80 ms, against 674-705
 * pairs/s and 61-86 ms with 5 (bench/results/throughput.md, "Pool size").
 */
export const defaultPoolMax = (cores = availableParallelism()) => Math.min(10, 2 * cores + 1);

const port = z.coerce.number().int().min(0).max(65535);
const seconds = z.coerce.number().int().positive();
const optionalUrl = z.url().optional();
/** A number pool spec (see domain/numbers/pool-spec.ts), expanded into its E.164 numbers. */
const poolSpec = z.string().transform((spec, ctx) => {
  try {
    return parsePoolSpec(spec);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});
/**
 * Comma-separated DNS resolvers (`ip`, `ip:port`, `[ipv6]:port`) for sender authentication,
 * checked by node's own resolver, which will use them (it takes IP addresses, not host names).
 */
const dnsServers = z.string().transform((list, ctx) => {
  const servers = list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    if (!servers.length) throw new Error('list at least one resolver');
    new Resolver().setServers(servers);
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: `give comma-separated resolver addresses such as 127.0.0.1:53 (${(error as Error).message})`,
    });
    return z.NEVER;
  }
  return servers;
});
/** Comma-separated domain names, lower-cased. */
const domainList = z.string().transform((list, ctx) => {
  const domains = list
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  const bad = domains.find((d) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d));
  if (bad) ctx.addIssue({ code: 'custom', message: `"${bad}" is not a domain name` });
  return domains;
});

/** One generic OpenID Connect provider for console sign-in ("Continue with …"). */
export interface SocialProviderConfig {
  slot: 1 | 2;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_BASE_URL: optionalUrl,
  CONSOLE_URL: optionalUrl,
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  SMTP_PORT: port.default(2525),
  INBOUND_EMAIL_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a domain name')
    .default('inbox.localhost'),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  EVENTS_TRUSTED_ISSUERS: z.string().optional(),
  EVENTS_SCHEMA_BASE: z.url().default('https://schemas.latchkey.dev'),
  USER_CODE_TTL: seconds.default(600),
  CLAIM_POLL_INTERVAL: seconds.default(5),
  ACCESS_TOKEN_TTL: seconds.default(3600),
  ASSERTION_TTL: seconds.default(2592000),
  SESSION_TTL: seconds.default(900),
  SERVICE_AUTH_ENABLED: z.enum(['true', 'false']).default('true'),
  EVENTS_MAX_AGE: seconds.default(300),
  IDENTITY_SIGNING_KEYS: z.string().optional(),
  AUTH_SWEEP_INTERVAL: seconds.default(60),
  CONSOLE_SESSION_TTL: seconds.default(7 * 24 * 3600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024),
  // A hop count or a list of proxy addresses; `true` (trust every hop) is refused.
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((raw, ctx) => {
      try {
        return parseTrustProxy(raw);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  SIGNIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  SIGNIN_WINDOW: seconds.default(900),
  OIDC_1_NAME: z.string().min(1).optional(),
  OIDC_1_ISSUER: optionalUrl,
  OIDC_1_CLIENT_ID: z.string().min(1).optional(),
  OIDC_1_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_2_NAME: z.string().min(1).optional(),
  OIDC_2_ISSUER: optionalUrl,
  OIDC_2_CLIENT_ID: z.string().min(1).optional(),
  OIDC_2_CLIENT_SECRET: z.string().min(1).optional(),
  // Challenge sessions, numbers and ingest.
  NUMBER_POOL: z.string().default(DEFAULT_SYNTHETIC_POOL).pipe(poolSpec),
  TWILIO_NUMBERS: poolSpec.optional(),
  NUMBER_QUARANTINE: z.coerce.number().int().min(0).default(600),
  MESSAGE_RETENTION: seconds.default(86400),
  SMTP_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024, 'must be at most 1048576 (1 MiB): the extraction budget is sized for it')
    .default(1024 * 1024),
  FREE_TIER_MONTHLY_SESSIONS: z.coerce.number().int().min(0).default(100),
  TARGET_POLICY_EXTRA: domainList.optional(),
  TARGET_POLICY_ALLOW: domainList.optional(),
  CHALLENGE_SWEEP_INTERVAL: seconds.default(5),
  // Transport limits (issue 11, hardening §4): slow clients are cut off, connections are capped,
  // and a WebSocket must authenticate promptly. See docs/security/transport.md.
  HTTP_HEADERS_TIMEOUT: seconds.default(30),
  HTTP_BODY_TIMEOUT: seconds.default(60),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().positive().default(10_000),
  WS_CONNECTION_INIT_TIMEOUT: seconds.default(10),
  // Faults (issue 11 §6): how long to wait for a database connection before answering 503.
  DATABASE_CONNECT_TIMEOUT: z.coerce.number().positive().max(60).default(5),
  // Throughput (issue 16): PostgreSQL connections one instance may hold (the embedded database
  // always has one). Unset: defaultPoolMax() above.
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).optional(),
  // Secrets at rest (issue 11 §5): the sealing keys, kept outside the database. Unset means the
  // 0600 key file DATA_DIR/secrets.key (db/sealing-keys.ts documents the format).
  SECRETS_KEY: z
    .string()
    .transform((value, ctx) => {
      try {
        return parseSecretsKey(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .optional(),
  // Accounts and outgoing mail (verification and password-reset links, sign-up throttling).
  MAIL_SMTP_URL: z
    .url({ protocol: /^smtps?$/, message: 'must be an smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z.string().min(3).max(320).optional(),
  SIGNUP_MAX_PER_ADDRESS: z.coerce.number().int().positive().default(10),
  SIGNUP_WINDOW: seconds.default(3600),
  // Revocation reaching open connections (src/auth/revocation.ts, src/auth/signing-keys.ts).
  CREDENTIAL_RECHECK_INTERVAL: seconds.default(30),
  SIGNING_KEYS_REFRESH_INTERVAL: seconds.default(10),
  // --- Inbound mail hardening (issue 11, ingest): SMTP clients, the extraction pool and budget.
  SMTP_MAX_CLIENTS: z.coerce.number().int().positive().default(32),
  EXTRACTION_THREADS: z.coerce.number().int().positive().max(64).optional(),
  EXTRACTION_BUDGET_MS: z.coerce.number().int().positive().max(60_000).default(2000),
  // --- Customer webhooks (issue 12) ---
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  WEBHOOK_ATTEMPT_TIMEOUT: seconds.max(60).default(10),
  // MCP hosts (issue 15 part B, src/auth/mcp-hosts.ts): anonymous dynamic client registrations
  // allowed per client address per window.
  MCP_REGISTRATION_MAX_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  MCP_REGISTRATION_WINDOW: seconds.default(3600),
  // --- Stock tools (issue 15 part A): GraphiQL and cross-origin access ---
  GRAPHIQL: z.enum(['true', 'false']).default('true'),
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const origins = (value ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean);
      for (const origin of origins) {
        // An origin is scheme://host[:port] exactly; `*` is refused because every allowed
        // request carries credentials (Authorization, x-api-key).
        let parsed: URL | undefined;
        try {
          parsed = new URL(origin);
        } catch {}
        if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
          ctx.addIssue({
            code: 'custom',
            message: `"${origin}" is not an origin like https://app.example.com (no path, no *)`,
          });
        }
      }
      return origins;
    }),
  // --- Sender authentication of inbound mail (issue 21) ---
  DNS_SERVERS: dnsServers.optional(),
  // --- Inbound SMTP STARTTLS (issue 15) ---
  SMTP_TLS_CERT: z.string().optional(),
  SMTP_TLS_KEY: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  consoleUrl: string;
  /** The path the console is served under: CONSOLE_URL's path, `/console` by default. */
  consolePath: string;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  smtpPort: number;
  inboundEmailDomain: string;
  twilioAuthToken: string | undefined;
  eventsTrustedIssuers: string | undefined;
  /** EVENTS_TRUSTED_ISSUERS, parsed and validated. */
  trustedEventIssuers: TrustedEventIssuer[];
  /** Seconds a security event token may be old (by `iat`) and still be accepted. */
  eventsMaxAge: number;
  /** Whether `POST /agent/identity` accepts `type: service_auth`. */
  serviceAuthEnabled: boolean;
  /** IDENTITY_SIGNING_KEYS: private JWKs given by environment (first signs); else from the database. */
  identitySigningKeys: Record<string, unknown>[] | undefined;
  /** Seconds between sweeps of expired tokens, codes and receipts. */
  authSweepInterval: number;
  eventsSchemaBase: string;
  userCodeTtl: number;
  claimPollInterval: number;
  accessTokenTtl: number;
  assertionTtl: number;
  sessionTtl: number;
  consoleSessionTtl: number;
  logLevel: Env['LOG_LEVEL'];
  bodyLimit: number;
  /** TRUST_PROXY: no proxy, a hop count, or the proxies' addresses (never "trust everything"). */
  trustProxy: TrustProxy;
  signinMaxFailures: number;
  signinWindow: number;
  socialProviders: SocialProviderConfig[];
  /** NUMBER_POOL: the synthetic numbers (default: 555-0100…0199, fictional, in ten area codes). */
  syntheticNumbers: string[];
  /** TWILIO_NUMBERS: programmable numbers, same syntax; when any, sms_otp sessions get these. */
  twilioNumbers: string[];
  /** NUMBER_QUARANTINE: seconds a released programmable number rests before serving anyone else. */
  numberQuarantine: number;
  /** MESSAGE_RETENTION: seconds raw bodies (and parsed codes) are kept before being erased. */
  messageRetention: number;
  /** SMTP_MAX_MESSAGE_BYTES: the largest inbound email accepted (SMTP SIZE; larger gets 552). */
  smtpMaxMessageBytes: number;
  /** FREE_TIER_MONTHLY_SESSIONS: sessions (opens and reroutes) a free account may use a month. */
  freeTierMonthlySessions: number;
  /** TARGET_POLICY_EXTRA: domains refused as targets beyond the maintained list. */
  targetPolicyExtra: string[];
  /** TARGET_POLICY_ALLOW: domains allowed even though the maintained list refuses them. */
  targetPolicyAllow: string[];
  /** CHALLENGE_SWEEP_INTERVAL: seconds between sweeps (expiry, retention, verdict outbox). */
  challengeSweepInterval: number;
  // Transport limits.
  /** HTTP_HEADERS_TIMEOUT: seconds a client has to send a request's headers. */
  httpHeadersTimeout: number;
  /** HTTP_BODY_TIMEOUT: seconds a client has to send a whole request (headers and body). */
  httpBodyTimeout: number;
  /** HTTP_MAX_CONNECTIONS: open connections (WebSockets included) beyond which new ones are dropped. */
  httpMaxConnections: number;
  /** WS_CONNECTION_INIT_TIMEOUT: seconds a WebSocket has to send `connection_init`. */
  wsConnectionInitTimeout: number;
  // Faults (issue 11 §6).
  /** DATABASE_CONNECT_TIMEOUT: seconds to get a database connection (new or pooled), then 503. */
  databaseConnectTimeout: number;
  /** DATABASE_POOL_MAX: most PostgreSQL connections of this instance. */
  databasePoolMax: number;
  // Secrets at rest.
  /** SECRETS_KEY: sealing keys (first seals); undefined means the key file in DATA_DIR. */
  secretsKey: SealingKey[] | undefined;
  // Accounts and outgoing mail.
  /** nodemailer SMTP URL; undefined: each mail is written to the log as one line. */
  mailSmtpUrl: string | undefined;
  mailFrom: string;
  signupMaxPerAddress: number;
  signupWindow: number;
  // Revocation reaching open connections.
  /** CREDENTIAL_RECHECK_INTERVAL: seconds between safety-net re-checks of open connections' credentials. */
  credentialRecheckInterval: number;
  /** SIGNING_KEYS_REFRESH_INTERVAL: seconds between re-reads of the signing keys (rotation, retirement). */
  signingKeysRefreshInterval: number;
  // --- Inbound mail hardening (issue 11, ingest).
  /** SMTP_MAX_CLIENTS: SMTP connections at once; the next is greeted with 421 and closed. */
  smtpMaxClients: number;
  /** EXTRACTION_THREADS: worker threads parsing and extracting inbound email (default: cores). */
  extractionThreads: number;
  /** EXTRACTION_BUDGET_MS: time one email may run in a worker before it is stored as "no code". */
  extractionBudgetMs: number;
  // --- Customer webhooks (issue 12) ---
  /** WEBHOOK_ALLOW_PRIVATE: lift the https-only and public-address checks (development, tests). */
  webhookAllowPrivate: boolean;
  /** WEBHOOK_ATTEMPT_TIMEOUT: seconds one delivery attempt may take (a 2xx within it succeeds). */
  webhookAttemptTimeout: number;
  // MCP hosts.
  /** MCP_REGISTRATION_MAX_PER_ADDRESS: dynamic client registrations per address per window. */
  mcpRegistrationMaxPerAddress: number;
  /** MCP_REGISTRATION_WINDOW: seconds of that window. */
  mcpRegistrationWindow: number;
  // --- Stock tools (issue 15 part A) ---
  /** GRAPHIQL: serve GraphiQL on `GET /graphql` to browsers. */
  graphiql: boolean;
  /** CORS_ORIGINS: browser origins allowed to call /graphql, /v1 and /mcp; empty: none. */
  corsOrigins: string[];
  // --- Sender authentication of inbound mail (issue 21) ---
  /** DNS_SERVERS: resolvers for SPF, DKIM and DMARC lookups; empty: the system's. */
  dnsServers: string[];
  // --- Inbound SMTP STARTTLS (issue 15) ---
  /** SMTP_TLS_CERT, SMTP_TLS_KEY: the PEM chain and key STARTTLS offers; unset: no STARTTLS. */
  smtpTls: SmtpTls | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** An issuer trusted to send security events, with its keys inline or at a JWKS URL. */
export type TrustedEventIssuer =
  | { issuer: string; jwks_uri: string }
  | { issuer: string; jwks: { keys: Record<string, unknown>[] } };

const trustedIssuersSchema = z.array(
  z.union([
    z.strictObject({ issuer: z.string().min(1), jwks_uri: z.url() }),
    z.strictObject({
      issuer: z.string().min(1),
      jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) }),
    }),
  ]),
);

/** Parses a JSON-valued variable, naming it in the error. */
function jsonVariable<S extends z.ZodType>(name: string, raw: string, schema: S): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${name}: must be valid JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new ConfigError(`${name}: ${issue.message}${where}`);
  }
  return parsed.data;
}

/** Private signing JWKs: RSA (RS256) or P-256 (ES256), each with a kid. */
const signingKeysSchema = z
  .array(
    z.union([
      z.looseObject({
        kty: z.literal('RSA'),
        n: z.string().min(1),
        e: z.string().min(1),
        d: z.string().min(1),
        kid: z.string().min(1),
      }),
      z.looseObject({
        kty: z.literal('EC'),
        crv: z.literal('P-256'),
        d: z.string().min(1),
        kid: z.string().min(1),
      }),
    ]),
  )
  .min(1);

function socialProviders(env: Env): SocialProviderConfig[] {
  const slots = [
    [1, env.OIDC_1_NAME, env.OIDC_1_ISSUER, env.OIDC_1_CLIENT_ID, env.OIDC_1_CLIENT_SECRET],
    [2, env.OIDC_2_NAME, env.OIDC_2_ISSUER, env.OIDC_2_CLIENT_ID, env.OIDC_2_CLIENT_SECRET],
  ] as const;
  const providers: SocialProviderConfig[] = [];
  for (const [slot, name, issuer, clientId, clientSecret] of slots) {
    const given = [name, issuer, clientId, clientSecret].filter((v) => v !== undefined).length;
    if (given === 0) continue;
    if (given !== 4 || !name || !issuer || !clientId || !clientSecret) {
      throw new ConfigError(
        `OIDC_${slot}_NAME, OIDC_${slot}_ISSUER, OIDC_${slot}_CLIENT_ID and OIDC_${slot}_CLIENT_SECRET must be set together`,
      );
    }
    providers.push({ slot, name, issuer, clientId, clientSecret });
  }
  return providers;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Parses the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${issue.path.join('.')}: ${issue.message}`);
  }
  const env = parsed.data;
  if (env.HTTP_HEADERS_TIMEOUT > env.HTTP_BODY_TIMEOUT) {
    // The body timeout covers the whole request, headers included, so it cannot be the shorter.
    throw new ConfigError('HTTP_HEADERS_TIMEOUT: must not be longer than HTTP_BODY_TIMEOUT');
  }
  const publicBaseUrl = trimSlash(env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`);
  const consoleUrl = trimSlash(env.CONSOLE_URL ?? `${publicBaseUrl}/console`);
  return {
    port: env.PORT,
    host: env.HOST,
    publicBaseUrl,
    consoleUrl,
    consolePath: new URL(consoleUrl).pathname.replace(/\/+$/, '') || '/console',
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR),
    redisUrl: env.REDIS_URL,
    smtpPort: env.SMTP_PORT,
    inboundEmailDomain: env.INBOUND_EMAIL_DOMAIN.toLowerCase(),
    twilioAuthToken: env.TWILIO_AUTH_TOKEN,
    eventsTrustedIssuers: env.EVENTS_TRUSTED_ISSUERS,
    trustedEventIssuers: env.EVENTS_TRUSTED_ISSUERS
      ? jsonVariable('EVENTS_TRUSTED_ISSUERS', env.EVENTS_TRUSTED_ISSUERS, trustedIssuersSchema)
      : [],
    eventsMaxAge: env.EVENTS_MAX_AGE,
    serviceAuthEnabled: env.SERVICE_AUTH_ENABLED === 'true',
    identitySigningKeys: env.IDENTITY_SIGNING_KEYS
      ? jsonVariable('IDENTITY_SIGNING_KEYS', env.IDENTITY_SIGNING_KEYS, signingKeysSchema)
      : undefined,
    authSweepInterval: env.AUTH_SWEEP_INTERVAL,
    eventsSchemaBase: trimSlash(env.EVENTS_SCHEMA_BASE),
    userCodeTtl: env.USER_CODE_TTL,
    claimPollInterval: env.CLAIM_POLL_INTERVAL,
    accessTokenTtl: env.ACCESS_TOKEN_TTL,
    assertionTtl: env.ASSERTION_TTL,
    sessionTtl: env.SESSION_TTL,
    consoleSessionTtl: env.CONSOLE_SESSION_TTL,
    logLevel: env.LOG_LEVEL,
    bodyLimit: env.BODY_LIMIT,
    trustProxy: env.TRUST_PROXY,
    signinMaxFailures: env.SIGNIN_MAX_FAILURES,
    signinWindow: env.SIGNIN_WINDOW,
    socialProviders: socialProviders(env),
    syntheticNumbers: env.NUMBER_POOL,
    twilioNumbers: env.TWILIO_NUMBERS ?? [],
    numberQuarantine: env.NUMBER_QUARANTINE,
    messageRetention: env.MESSAGE_RETENTION,
    smtpMaxMessageBytes: env.SMTP_MAX_MESSAGE_BYTES,
    freeTierMonthlySessions: env.FREE_TIER_MONTHLY_SESSIONS,
    targetPolicyExtra: env.TARGET_POLICY_EXTRA ?? [],
    targetPolicyAllow: env.TARGET_POLICY_ALLOW ?? [],
    challengeSweepInterval: env.CHALLENGE_SWEEP_INTERVAL,
    // Transport limits.
    httpHeadersTimeout: env.HTTP_HEADERS_TIMEOUT,
    httpBodyTimeout: env.HTTP_BODY_TIMEOUT,
    httpMaxConnections: env.HTTP_MAX_CONNECTIONS,
    wsConnectionInitTimeout: env.WS_CONNECTION_INIT_TIMEOUT,
    // Faults (issue 11 §6).
    databaseConnectTimeout: env.DATABASE_CONNECT_TIMEOUT,
    databasePoolMax: env.DATABASE_POOL_MAX ?? defaultPoolMax(),
    // Secrets at rest.
    secretsKey: env.SECRETS_KEY,
    // Accounts and outgoing mail.
    mailSmtpUrl: env.MAIL_SMTP_URL,
    mailFrom: env.MAIL_FROM ?? `Latchkey <no-reply@${env.INBOUND_EMAIL_DOMAIN.toLowerCase()}>`,
    signupMaxPerAddress: env.SIGNUP_MAX_PER_ADDRESS,
    signupWindow: env.SIGNUP_WINDOW,
    // Revocation reaching open connections.
    credentialRecheckInterval: env.CREDENTIAL_RECHECK_INTERVAL,
    signingKeysRefreshInterval: env.SIGNING_KEYS_REFRESH_INTERVAL,
    // --- Inbound mail hardening (issue 11, ingest).
    smtpMaxClients: env.SMTP_MAX_CLIENTS,
    extractionThreads: env.EXTRACTION_THREADS ?? availableParallelism(),
    extractionBudgetMs: env.EXTRACTION_BUDGET_MS,
    // --- Customer webhooks (issue 12) ---
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true',
    webhookAttemptTimeout: env.WEBHOOK_ATTEMPT_TIMEOUT,
    // MCP hosts.
    mcpRegistrationMaxPerAddress: env.MCP_REGISTRATION_MAX_PER_ADDRESS,
    mcpRegistrationWindow: env.MCP_REGISTRATION_WINDOW,
    // --- Stock tools (issue 15 part A) ---
    graphiql: env.GRAPHIQL === 'true',
    corsOrigins: env.CORS_ORIGINS,
    // --- Sender authentication of inbound mail (issue 21) ---
    dnsServers: env.DNS_SERVERS ?? [],
    // --- Inbound SMTP STARTTLS (issue 15) ---
    smtpTls: smtpTls(env.SMTP_TLS_CERT, env.SMTP_TLS_KEY),
  };
}

// --- Inbound SMTP STARTTLS (issue 15) ---

export interface SmtpTls {
  cert: Buffer;
  key: Buffer;
}

/**
 * Reads and checks the STARTTLS certificate chain and key (PEM files), so a wrong path, an
 * unreadable file or a key that does not match the certificate stops the start with a message
 * naming the variable rather than failing the first sender's handshake. Both or neither.
 */
function smtpTls(certPath: string | undefined, keyPath: string | undefined): SmtpTls | undefined {
  if (!certPath && !keyPath) return undefined;
  if (!certPath || !keyPath) {
    throw new ConfigError('SMTP_TLS_CERT and SMTP_TLS_KEY must be set together');
  }
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ConfigError(`${name}: cannot read ${file} (${reason})`);
    }
  };
  const tls = { cert: read('SMTP_TLS_CERT', certPath), key: read('SMTP_TLS_KEY', keyPath) };
  if (!tls.cert.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError(`SMTP_TLS_CERT: ${certPath} holds no PEM certificate`);
  }
  try {
    createSecureContext(tls);
  } catch (error) {
    throw new ConfigError(
      `SMTP_TLS_KEY: ${keyPath} is not a PEM private key for the certificate in ${certPath} (${(error as Error).message})`,
    );
  }
  return tls;
}
