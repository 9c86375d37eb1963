/**
 * The schema operations the /v1 routes and MCP tools run, as GraphQL documents prepared (parsed
 * and validated against the schema) once at import. One document per operation, shared by both
 * faces, so REST and MCP cannot ask the schema different questions.
 */
import { prepare } from './operations.ts';

const session = `fragment S on ChallengeSession {
  id channel state agentId target number numberType inboxAddress expiresAt createdAt endedAt
  firstCodeAt rerouteCount authenticatorId nextStep requireAuthenticatedSender
}`;
const verdict = `fragment V on VerdictResult {
  sessionId verdict receivedAt otpCode magicLink webauthnRequired from validUntil nextStep
  sender { address domain authenticated spf dkim dmarc } linkDomain linkMatchesTarget
}`;
const authenticator = `fragment A on Authenticator {
  id target label issuer digits period algorithm createdAt
}`;

export const documents = {
  openChallenge: prepare(
    `mutation($input: OpenChallengeInput) { openChallenge(input: $input) { ...S } } ${session}`,
  ),
  session: prepare(`query($id: ID!) { session(id: $id) { ...S } } ${session}`),
  sessions: prepare(`query($first: Int, $after: String) {
    sessions(first: $first, after: $after) { edges { node { ...S } } pageInfo { hasNextPage } }
  } ${session}`),
  closeChallenge: prepare(
    `mutation($id: ID!) { closeChallenge(sessionId: $id) { status session { ...S } } } ${session}`,
  ),
  rerouteChallenge: prepare(
    `mutation($id: ID!) { rerouteChallenge(sessionId: $id) { previousNumber session { ...S } } } ${session}`,
  ),
  waitForVerdict: prepare(
    `mutation($id: ID!, $timeout: Float) { waitForVerdict(sessionId: $id, timeout: $timeout) { ...V } } ${verdict}`,
  ),
  // Reading codes consumes them, so the listing is the `readMessages` mutation (aliased to keep
  // the result's key); the `messages` query shows metadata only.
  messages: prepare(`mutation($id: ID!, $first: Int, $after: String) {
    messages: readMessages(sessionId: $id, first: $first, after: $after) {
      edges { node {
        id sessionId medium carrier from to receivedAt outcome codesHidden rejected
        sender { address domain authenticated spf dkim dmarc }
        verdict { kind otpCode magicLink webauthnRequired consumedAt linkDomain linkMatchesTarget }
      } }
      pageInfo { hasNextPage }
    }
  }`),
  usage: prepare(`query($first: Int, $after: String, $period: String) {
    usage(first: $first, after: $after, period: $period) {
      edges { node { id kind status sessionId channel credentialId agentId occurredAt settledAt } }
      pageInfo { hasNextPage }
    }
  }`),
  usageSummary: prepare(`query($period: String) { usageSummary(period: $period) {
    accountId tier periodStart periodEnd sessionsUsed billableSessions pendingSessions unbilledSessions
    includedSessions allowanceRemaining unitPriceCents amountDueCents currency
    byCredential { credentialId sessionsUsed billableSessions }
  } }`),
  apiKeys: prepare('query { apiKeys { id name hint scopes createdBy createdAt lastUsedAt } }'),
  createApiKey:
    prepare(`mutation($name: String, $scopes: [Scope!]) { createApiKey(name: $name, scopes: $scopes) {
    secret apiKey { id name hint scopes createdBy createdAt lastUsedAt }
  } }`),
  deleteApiKey: prepare('mutation($id: ID!) { deleteApiKey(id: $id) }'),
  authenticators: prepare(`query($first: Int, $after: String) {
    authenticators(first: $first, after: $after) { edges { node { ...A } } pageInfo { hasNextPage } }
  } ${authenticator}`),
  createAuthenticator: prepare(
    `mutation($input: CreateAuthenticatorInput!) { createAuthenticator(input: $input) { ...A } } ${authenticator}`,
  ),
  deleteAuthenticator: prepare('mutation($id: ID!) { deleteAuthenticator(id: $id) }'),
};

// --- Customer webhooks (issue 12) ---
const endpoint =
  'fragment E on WebhookEndpoint { id url events createdAt failingSince disabledAt previousSecretExpiresAt }';
const delivery =
  'fragment D on WebhookDelivery { id eventType status attempts lastStatusCode nextAttemptAt createdAt deliveredAt }';

export const webhookDocuments = {
  webhookEndpoints: prepare(`query { webhookEndpoints { ...E } } ${endpoint}`),
  createWebhookEndpoint: prepare(
    `mutation($url: String!, $events: [WebhookEventType!]) {
      createWebhookEndpoint(url: $url, events: $events) { secret endpoint { ...E } }
    } ${endpoint}`,
  ),
  deleteWebhookEndpoint: prepare('mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }'),
  rotateWebhookSecret: prepare(
    `mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret endpoint { ...E } } } ${endpoint}`,
  ),
  sendWebhookTestEvent: prepare(
    `mutation($id: ID!) { sendWebhookTestEvent(id: $id) { ...D } } ${delivery}`,
  ),
  webhookDeliveries: prepare(
    `query($id: ID!, $first: Int, $after: String) {
      webhookDeliveries(endpointId: $id, first: $first, after: $after) {
        deliveries { ...D } hasMore
      }
    } ${delivery}`,
  ),
  retryWebhookDelivery: prepare(
    `mutation($id: ID!, $deliveryId: ID!) {
      retryWebhookDelivery(endpointId: $id, deliveryId: $deliveryId) { ...D }
    } ${delivery}`,
  ),
};
