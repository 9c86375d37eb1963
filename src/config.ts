/**
 * Configuration: the environment, parsed once at start and validated.
 *
 * Every variable of `shared/spec/decisions.md` lives here with its default. A bad value stops the
 * start with a message naming the variable, never a stack trace from somewhere deeper.
 */
import path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const seconds = z.coerce.number().int().positive();
const optionalUrl = z.url().optional();

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
  CONSOLE_SESSION_TTL: seconds.default(7 * 24 * 3600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
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
  eventsSchemaBase: string;
  userCodeTtl: number;
  claimPollInterval: number;
  accessTokenTtl: number;
  assertionTtl: number;
  sessionTtl: number;
  consoleSessionTtl: number;
  logLevel: Env['LOG_LEVEL'];
  bodyLimit: number;
  trustProxy: boolean;
  signinMaxFailures: number;
  signinWindow: number;
  socialProviders: SocialProviderConfig[];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

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
    eventsSchemaBase: trimSlash(env.EVENTS_SCHEMA_BASE),
    userCodeTtl: env.USER_CODE_TTL,
    claimPollInterval: env.CLAIM_POLL_INTERVAL,
    accessTokenTtl: env.ACCESS_TOKEN_TTL,
    assertionTtl: env.ASSERTION_TTL,
    sessionTtl: env.SESSION_TTL,
    consoleSessionTtl: env.CONSOLE_SESSION_TTL,
    logLevel: env.LOG_LEVEL,
    bodyLimit: env.BODY_LIMIT,
    trustProxy: env.TRUST_PROXY === 'true',
    signinMaxFailures: env.SIGNIN_MAX_FAILURES,
    signinWindow: env.SIGNIN_WINDOW,
    socialProviders: socialProviders(env),
  };
}
