/**
 * @latchkey/sdk: open sign-in challenge sessions, wait for the code or magic link, and verify
 * webhook deliveries. No runtime dependencies beyond the platform's fetch and node:crypto.
 */
export {
  type ApiKey,
  type Authenticator,
  type AuthenticatorInput,
  type Channel,
  type CloseResult,
  type CreatedApiKey,
  type CreatedWebhookEndpoint,
  Latchkey,
  type LatchkeyOptions,
  type Message,
  type RerouteResult,
  type Sender,
  type Session,
  type Usage,
  type UsageSummary,
  type Verdict,
  type WaitOptions,
  type WebhookEndpoint,
} from './client.ts';
export { LatchkeyError, OtpTimeoutError, type Rerouted } from './errors.ts';
export type { RegisterOptions, Registration } from './onboarding.ts';
export type { operations, paths } from './openapi.ts';
export { verifyWebhook } from './webhooks.ts';
