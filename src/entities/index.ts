/** Every entity the ORM knows, in one list (discovery by reference, never by glob). */
import { Account } from './account.ts';
import { AccountPricing } from './account-pricing.ts';
import { AgentRegistration } from './agent-registration.ts';
import { ApiKey } from './api-key.ts';
import { Authenticator } from './authenticator.ts';
import { ChallengeSession } from './challenge-session.ts';
import { ConsoleSession } from './console-session.ts';
import { EmailToken } from './email-token.ts';
import { IdempotencyKey } from './idempotency-key.ts';
import { InboundMessage } from './inbound-message.ts';
import { OidcPayload } from './oidc-payload.ts';
import { PhoneNumber } from './phone-number.ts';
import { SecurityEventReceipt } from './security-event-receipt.ts';
import { ServerSecret } from './server-secret.ts';
import { SigningKey } from './signing-key.ts';
import { SocialIdentity } from './social-identity.ts';
import { ThrottleCounter } from './throttle-counter.ts';
import { TotpStep } from './totp-step.ts';
import { UsageEvent } from './usage-event.ts';
import { User } from './user.ts';
import { Verdict } from './verdict.ts';
import { WebhookDelivery } from './webhook-delivery.ts';
import { WebhookEndpoint } from './webhook-endpoint.ts';

export {
  Account,
  AccountPricing,
  AgentRegistration,
  ApiKey,
  Authenticator,
  ChallengeSession,
  ConsoleSession,
  EmailToken,
  IdempotencyKey,
  InboundMessage,
  OidcPayload,
  PhoneNumber,
  SecurityEventReceipt,
  ServerSecret,
  SigningKey,
  SocialIdentity,
  ThrottleCounter,
  TotpStep,
  UsageEvent,
  User,
  Verdict,
  WebhookDelivery,
  WebhookEndpoint,
};

export const entities = [
  Account,
  User,
  ConsoleSession,
  SocialIdentity,
  ThrottleCounter,
  ServerSecret,
  AgentRegistration,
  ApiKey,
  OidcPayload,
  SigningKey,
  SecurityEventReceipt,
  ChallengeSession,
  PhoneNumber,
  InboundMessage,
  Verdict,
  UsageEvent,
  AccountPricing,
  EmailToken,
  Authenticator,
  TotpStep,
  WebhookEndpoint,
  WebhookDelivery,
  IdempotencyKey,
];
