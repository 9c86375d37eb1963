/* eslint-disable */
import * as types from './graphql.ts';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n    mutation CloseChallenge($id: ID!) {\n      closeChallenge(sessionId: $id) { status session { ...SessionFields } }\n    }\n  ": typeof types.CloseChallengeDocument,
    "\n    mutation CreateApiKey($name: String, $scopes: [Scope!]) {\n      createApiKey(name: $name, scopes: $scopes) { secret apiKey { ...ApiKeyFields } }\n    }\n  ": typeof types.CreateApiKeyDocument,
    "\n    mutation CreateAuthenticator($input: CreateAuthenticatorInput!) {\n      createAuthenticator(input: $input) { ...AuthenticatorFields }\n    }\n  ": typeof types.CreateAuthenticatorDocument,
    "\n    mutation CreateWebhookEndpoint($url: String!, $events: [WebhookEventType!]) {\n      createWebhookEndpoint(url: $url, events: $events) {\n        secret endpoint { ...WebhookEndpointFields }\n      }\n    }\n  ": typeof types.CreateWebhookEndpointDocument,
    "\n    mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n  ": typeof types.DeleteApiKeyDocument,
    "\n    mutation DeleteAuthenticator($id: ID!) { deleteAuthenticator(id: $id) }\n  ": typeof types.DeleteAuthenticatorDocument,
    "\n    mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n  ": typeof types.DeleteWebhookEndpointDocument,
    "\n  fragment SessionFields on ChallengeSession {\n    id channel state agentId target number numberType inboxAddress expiresAt createdAt endedAt\n    firstCodeAt rerouteCount authenticatorId nextStep requireAuthenticatedSender\n  }\n": typeof types.SessionFieldsFragmentDoc,
    "\n  fragment SenderFields on Sender { address domain authenticated spf dkim dmarc }\n": typeof types.SenderFieldsFragmentDoc,
    "\n  fragment VerdictFields on VerdictResult {\n    sessionId verdict receivedAt otpCode magicLink webauthnRequired from validUntil nextStep\n    sender { ...SenderFields } linkDomain linkMatchesTarget\n  }\n": typeof types.VerdictFieldsFragmentDoc,
    "\n  fragment MessageFields on Message {\n    id sessionId medium carrier from to receivedAt outcome codesHidden rejected\n    sender { ...SenderFields }\n    verdict { kind otpCode magicLink webauthnRequired consumedAt linkDomain linkMatchesTarget }\n  }\n": typeof types.MessageFieldsFragmentDoc,
    "\n  fragment ApiKeyFields on ApiKey { id name hint scopes createdBy createdAt lastUsedAt }\n": typeof types.ApiKeyFieldsFragmentDoc,
    "\n  fragment AuthenticatorFields on Authenticator {\n    id target label issuer digits period algorithm createdAt\n  }\n": typeof types.AuthenticatorFieldsFragmentDoc,
    "\n  fragment UsageEventFields on UsageEvent {\n    id kind status sessionId channel credentialId agentId occurredAt settledAt\n  }\n": typeof types.UsageEventFieldsFragmentDoc,
    "\n  fragment WebhookEndpointFields on WebhookEndpoint {\n    id url events createdAt failingSince disabledAt previousSecretExpiresAt\n  }\n": typeof types.WebhookEndpointFieldsFragmentDoc,
    "\n  fragment WebhookDeliveryFields on WebhookDelivery {\n    id eventType status attempts lastStatusCode nextAttemptAt createdAt deliveredAt\n  }\n": typeof types.WebhookDeliveryFieldsFragmentDoc,
    "\n    mutation ReadMessages($id: ID!, $first: Int, $after: String) {\n      readMessages(sessionId: $id, first: $first, after: $after) {\n        edges { node { ...MessageFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  ": typeof types.ReadMessagesDocument,
    "\n    query GetSession($id: ID!) {\n      session(id: $id) { ...SessionFields }\n    }\n  ": typeof types.GetSessionDocument,
    "\n    query ListApiKeys { apiKeys { ...ApiKeyFields } }\n  ": typeof types.ListApiKeysDocument,
    "\n    query ListAuthenticators($first: Int, $after: String) {\n      authenticators(first: $first, after: $after) {\n        edges { node { ...AuthenticatorFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  ": typeof types.ListAuthenticatorsDocument,
    "\n    query ListSessions($first: Int, $after: String) {\n      sessions(first: $first, after: $after) {\n        edges { node { ...SessionFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  ": typeof types.ListSessionsDocument,
    "\n    query ListUsage($first: Int, $after: String, $period: String) {\n      usage(first: $first, after: $after, period: $period) {\n        edges { node { ...UsageEventFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  ": typeof types.ListUsageDocument,
    "\n    query ListWebhookDeliveries($id: ID!, $first: Int, $after: String) {\n      webhookDeliveries(endpointId: $id, first: $first, after: $after) {\n        deliveries { ...WebhookDeliveryFields }\n        hasMore\n      }\n    }\n  ": typeof types.ListWebhookDeliveriesDocument,
    "\n    query ListWebhookEndpoints { webhookEndpoints { ...WebhookEndpointFields } }\n  ": typeof types.ListWebhookEndpointsDocument,
    "\n    mutation OpenChallenge($input: OpenChallengeInput) {\n      openChallenge(input: $input) { ...SessionFields }\n    }\n  ": typeof types.OpenChallengeDocument,
    "\n    mutation RerouteChallenge($id: ID!) {\n      rerouteChallenge(sessionId: $id) { previousNumber session { ...SessionFields } }\n    }\n  ": typeof types.RerouteChallengeDocument,
    "\n    mutation RetryWebhookDelivery($id: ID!, $deliveryId: ID!) {\n      retryWebhookDelivery(endpointId: $id, deliveryId: $deliveryId) { ...WebhookDeliveryFields }\n    }\n  ": typeof types.RetryWebhookDeliveryDocument,
    "\n    mutation RotateWebhookSecret($id: ID!) {\n      rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookEndpointFields } }\n    }\n  ": typeof types.RotateWebhookSecretDocument,
    "\n    mutation SendWebhookTestEvent($id: ID!) {\n      sendWebhookTestEvent(id: $id) { ...WebhookDeliveryFields }\n    }\n  ": typeof types.SendWebhookTestEventDocument,
    "\n    query UsageSummary($period: String) {\n      usageSummary(period: $period) {\n        accountId tier periodStart periodEnd sessionsUsed billableSessions pendingSessions\n        unbilledSessions includedSessions allowanceRemaining unitPriceCents amountDueCents currency\n        byCredential { credentialId sessionsUsed billableSessions }\n      }\n    }\n  ": typeof types.UsageSummaryDocument,
    "\n    mutation WaitForVerdict($id: ID!, $timeout: Float) {\n      waitForVerdict(sessionId: $id, timeout: $timeout) { ...VerdictFields }\n    }\n  ": typeof types.WaitForVerdictDocument,
};
const documents: Documents = {
    "\n    mutation CloseChallenge($id: ID!) {\n      closeChallenge(sessionId: $id) { status session { ...SessionFields } }\n    }\n  ": types.CloseChallengeDocument,
    "\n    mutation CreateApiKey($name: String, $scopes: [Scope!]) {\n      createApiKey(name: $name, scopes: $scopes) { secret apiKey { ...ApiKeyFields } }\n    }\n  ": types.CreateApiKeyDocument,
    "\n    mutation CreateAuthenticator($input: CreateAuthenticatorInput!) {\n      createAuthenticator(input: $input) { ...AuthenticatorFields }\n    }\n  ": types.CreateAuthenticatorDocument,
    "\n    mutation CreateWebhookEndpoint($url: String!, $events: [WebhookEventType!]) {\n      createWebhookEndpoint(url: $url, events: $events) {\n        secret endpoint { ...WebhookEndpointFields }\n      }\n    }\n  ": types.CreateWebhookEndpointDocument,
    "\n    mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n  ": types.DeleteApiKeyDocument,
    "\n    mutation DeleteAuthenticator($id: ID!) { deleteAuthenticator(id: $id) }\n  ": types.DeleteAuthenticatorDocument,
    "\n    mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n  ": types.DeleteWebhookEndpointDocument,
    "\n  fragment SessionFields on ChallengeSession {\n    id channel state agentId target number numberType inboxAddress expiresAt createdAt endedAt\n    firstCodeAt rerouteCount authenticatorId nextStep requireAuthenticatedSender\n  }\n": types.SessionFieldsFragmentDoc,
    "\n  fragment SenderFields on Sender { address domain authenticated spf dkim dmarc }\n": types.SenderFieldsFragmentDoc,
    "\n  fragment VerdictFields on VerdictResult {\n    sessionId verdict receivedAt otpCode magicLink webauthnRequired from validUntil nextStep\n    sender { ...SenderFields } linkDomain linkMatchesTarget\n  }\n": types.VerdictFieldsFragmentDoc,
    "\n  fragment MessageFields on Message {\n    id sessionId medium carrier from to receivedAt outcome codesHidden rejected\n    sender { ...SenderFields }\n    verdict { kind otpCode magicLink webauthnRequired consumedAt linkDomain linkMatchesTarget }\n  }\n": types.MessageFieldsFragmentDoc,
    "\n  fragment ApiKeyFields on ApiKey { id name hint scopes createdBy createdAt lastUsedAt }\n": types.ApiKeyFieldsFragmentDoc,
    "\n  fragment AuthenticatorFields on Authenticator {\n    id target label issuer digits period algorithm createdAt\n  }\n": types.AuthenticatorFieldsFragmentDoc,
    "\n  fragment UsageEventFields on UsageEvent {\n    id kind status sessionId channel credentialId agentId occurredAt settledAt\n  }\n": types.UsageEventFieldsFragmentDoc,
    "\n  fragment WebhookEndpointFields on WebhookEndpoint {\n    id url events createdAt failingSince disabledAt previousSecretExpiresAt\n  }\n": types.WebhookEndpointFieldsFragmentDoc,
    "\n  fragment WebhookDeliveryFields on WebhookDelivery {\n    id eventType status attempts lastStatusCode nextAttemptAt createdAt deliveredAt\n  }\n": types.WebhookDeliveryFieldsFragmentDoc,
    "\n    mutation ReadMessages($id: ID!, $first: Int, $after: String) {\n      readMessages(sessionId: $id, first: $first, after: $after) {\n        edges { node { ...MessageFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  ": types.ReadMessagesDocument,
    "\n    query GetSession($id: ID!) {\n      session(id: $id) { ...SessionFields }\n    }\n  ": types.GetSessionDocument,
    "\n    query ListApiKeys { apiKeys { ...ApiKeyFields } }\n  ": types.ListApiKeysDocument,
    "\n    query ListAuthenticators($first: Int, $after: String) {\n      authenticators(first: $first, after: $after) {\n        edges { node { ...AuthenticatorFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  ": types.ListAuthenticatorsDocument,
    "\n    query ListSessions($first: Int, $after: String) {\n      sessions(first: $first, after: $after) {\n        edges { node { ...SessionFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  ": types.ListSessionsDocument,
    "\n    query ListUsage($first: Int, $after: String, $period: String) {\n      usage(first: $first, after: $after, period: $period) {\n        edges { node { ...UsageEventFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  ": types.ListUsageDocument,
    "\n    query ListWebhookDeliveries($id: ID!, $first: Int, $after: String) {\n      webhookDeliveries(endpointId: $id, first: $first, after: $after) {\n        deliveries { ...WebhookDeliveryFields }\n        hasMore\n      }\n    }\n  ": types.ListWebhookDeliveriesDocument,
    "\n    query ListWebhookEndpoints { webhookEndpoints { ...WebhookEndpointFields } }\n  ": types.ListWebhookEndpointsDocument,
    "\n    mutation OpenChallenge($input: OpenChallengeInput) {\n      openChallenge(input: $input) { ...SessionFields }\n    }\n  ": types.OpenChallengeDocument,
    "\n    mutation RerouteChallenge($id: ID!) {\n      rerouteChallenge(sessionId: $id) { previousNumber session { ...SessionFields } }\n    }\n  ": types.RerouteChallengeDocument,
    "\n    mutation RetryWebhookDelivery($id: ID!, $deliveryId: ID!) {\n      retryWebhookDelivery(endpointId: $id, deliveryId: $deliveryId) { ...WebhookDeliveryFields }\n    }\n  ": types.RetryWebhookDeliveryDocument,
    "\n    mutation RotateWebhookSecret($id: ID!) {\n      rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookEndpointFields } }\n    }\n  ": types.RotateWebhookSecretDocument,
    "\n    mutation SendWebhookTestEvent($id: ID!) {\n      sendWebhookTestEvent(id: $id) { ...WebhookDeliveryFields }\n    }\n  ": types.SendWebhookTestEventDocument,
    "\n    query UsageSummary($period: String) {\n      usageSummary(period: $period) {\n        accountId tier periodStart periodEnd sessionsUsed billableSessions pendingSessions\n        unbilledSessions includedSessions allowanceRemaining unitPriceCents amountDueCents currency\n        byCredential { credentialId sessionsUsed billableSessions }\n      }\n    }\n  ": types.UsageSummaryDocument,
    "\n    mutation WaitForVerdict($id: ID!, $timeout: Float) {\n      waitForVerdict(sessionId: $id, timeout: $timeout) { ...VerdictFields }\n    }\n  ": types.WaitForVerdictDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation CloseChallenge($id: ID!) {\n      closeChallenge(sessionId: $id) { status session { ...SessionFields } }\n    }\n  "): (typeof documents)["\n    mutation CloseChallenge($id: ID!) {\n      closeChallenge(sessionId: $id) { status session { ...SessionFields } }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation CreateApiKey($name: String, $scopes: [Scope!]) {\n      createApiKey(name: $name, scopes: $scopes) { secret apiKey { ...ApiKeyFields } }\n    }\n  "): (typeof documents)["\n    mutation CreateApiKey($name: String, $scopes: [Scope!]) {\n      createApiKey(name: $name, scopes: $scopes) { secret apiKey { ...ApiKeyFields } }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation CreateAuthenticator($input: CreateAuthenticatorInput!) {\n      createAuthenticator(input: $input) { ...AuthenticatorFields }\n    }\n  "): (typeof documents)["\n    mutation CreateAuthenticator($input: CreateAuthenticatorInput!) {\n      createAuthenticator(input: $input) { ...AuthenticatorFields }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation CreateWebhookEndpoint($url: String!, $events: [WebhookEventType!]) {\n      createWebhookEndpoint(url: $url, events: $events) {\n        secret endpoint { ...WebhookEndpointFields }\n      }\n    }\n  "): (typeof documents)["\n    mutation CreateWebhookEndpoint($url: String!, $events: [WebhookEventType!]) {\n      createWebhookEndpoint(url: $url, events: $events) {\n        secret endpoint { ...WebhookEndpointFields }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n  "): (typeof documents)["\n    mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation DeleteAuthenticator($id: ID!) { deleteAuthenticator(id: $id) }\n  "): (typeof documents)["\n    mutation DeleteAuthenticator($id: ID!) { deleteAuthenticator(id: $id) }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n  "): (typeof documents)["\n    mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SessionFields on ChallengeSession {\n    id channel state agentId target number numberType inboxAddress expiresAt createdAt endedAt\n    firstCodeAt rerouteCount authenticatorId nextStep requireAuthenticatedSender\n  }\n"): (typeof documents)["\n  fragment SessionFields on ChallengeSession {\n    id channel state agentId target number numberType inboxAddress expiresAt createdAt endedAt\n    firstCodeAt rerouteCount authenticatorId nextStep requireAuthenticatedSender\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SenderFields on Sender { address domain authenticated spf dkim dmarc }\n"): (typeof documents)["\n  fragment SenderFields on Sender { address domain authenticated spf dkim dmarc }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment VerdictFields on VerdictResult {\n    sessionId verdict receivedAt otpCode magicLink webauthnRequired from validUntil nextStep\n    sender { ...SenderFields } linkDomain linkMatchesTarget\n  }\n"): (typeof documents)["\n  fragment VerdictFields on VerdictResult {\n    sessionId verdict receivedAt otpCode magicLink webauthnRequired from validUntil nextStep\n    sender { ...SenderFields } linkDomain linkMatchesTarget\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MessageFields on Message {\n    id sessionId medium carrier from to receivedAt outcome codesHidden rejected\n    sender { ...SenderFields }\n    verdict { kind otpCode magicLink webauthnRequired consumedAt linkDomain linkMatchesTarget }\n  }\n"): (typeof documents)["\n  fragment MessageFields on Message {\n    id sessionId medium carrier from to receivedAt outcome codesHidden rejected\n    sender { ...SenderFields }\n    verdict { kind otpCode magicLink webauthnRequired consumedAt linkDomain linkMatchesTarget }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ApiKeyFields on ApiKey { id name hint scopes createdBy createdAt lastUsedAt }\n"): (typeof documents)["\n  fragment ApiKeyFields on ApiKey { id name hint scopes createdBy createdAt lastUsedAt }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AuthenticatorFields on Authenticator {\n    id target label issuer digits period algorithm createdAt\n  }\n"): (typeof documents)["\n  fragment AuthenticatorFields on Authenticator {\n    id target label issuer digits period algorithm createdAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment UsageEventFields on UsageEvent {\n    id kind status sessionId channel credentialId agentId occurredAt settledAt\n  }\n"): (typeof documents)["\n  fragment UsageEventFields on UsageEvent {\n    id kind status sessionId channel credentialId agentId occurredAt settledAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookEndpointFields on WebhookEndpoint {\n    id url events createdAt failingSince disabledAt previousSecretExpiresAt\n  }\n"): (typeof documents)["\n  fragment WebhookEndpointFields on WebhookEndpoint {\n    id url events createdAt failingSince disabledAt previousSecretExpiresAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookDeliveryFields on WebhookDelivery {\n    id eventType status attempts lastStatusCode nextAttemptAt createdAt deliveredAt\n  }\n"): (typeof documents)["\n  fragment WebhookDeliveryFields on WebhookDelivery {\n    id eventType status attempts lastStatusCode nextAttemptAt createdAt deliveredAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation ReadMessages($id: ID!, $first: Int, $after: String) {\n      readMessages(sessionId: $id, first: $first, after: $after) {\n        edges { node { ...MessageFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  "): (typeof documents)["\n    mutation ReadMessages($id: ID!, $first: Int, $after: String) {\n      readMessages(sessionId: $id, first: $first, after: $after) {\n        edges { node { ...MessageFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query GetSession($id: ID!) {\n      session(id: $id) { ...SessionFields }\n    }\n  "): (typeof documents)["\n    query GetSession($id: ID!) {\n      session(id: $id) { ...SessionFields }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ListApiKeys { apiKeys { ...ApiKeyFields } }\n  "): (typeof documents)["\n    query ListApiKeys { apiKeys { ...ApiKeyFields } }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ListAuthenticators($first: Int, $after: String) {\n      authenticators(first: $first, after: $after) {\n        edges { node { ...AuthenticatorFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  "): (typeof documents)["\n    query ListAuthenticators($first: Int, $after: String) {\n      authenticators(first: $first, after: $after) {\n        edges { node { ...AuthenticatorFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ListSessions($first: Int, $after: String) {\n      sessions(first: $first, after: $after) {\n        edges { node { ...SessionFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  "): (typeof documents)["\n    query ListSessions($first: Int, $after: String) {\n      sessions(first: $first, after: $after) {\n        edges { node { ...SessionFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ListUsage($first: Int, $after: String, $period: String) {\n      usage(first: $first, after: $after, period: $period) {\n        edges { node { ...UsageEventFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  "): (typeof documents)["\n    query ListUsage($first: Int, $after: String, $period: String) {\n      usage(first: $first, after: $after, period: $period) {\n        edges { node { ...UsageEventFields } }\n        pageInfo { hasNextPage }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ListWebhookDeliveries($id: ID!, $first: Int, $after: String) {\n      webhookDeliveries(endpointId: $id, first: $first, after: $after) {\n        deliveries { ...WebhookDeliveryFields }\n        hasMore\n      }\n    }\n  "): (typeof documents)["\n    query ListWebhookDeliveries($id: ID!, $first: Int, $after: String) {\n      webhookDeliveries(endpointId: $id, first: $first, after: $after) {\n        deliveries { ...WebhookDeliveryFields }\n        hasMore\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query ListWebhookEndpoints { webhookEndpoints { ...WebhookEndpointFields } }\n  "): (typeof documents)["\n    query ListWebhookEndpoints { webhookEndpoints { ...WebhookEndpointFields } }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation OpenChallenge($input: OpenChallengeInput) {\n      openChallenge(input: $input) { ...SessionFields }\n    }\n  "): (typeof documents)["\n    mutation OpenChallenge($input: OpenChallengeInput) {\n      openChallenge(input: $input) { ...SessionFields }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RerouteChallenge($id: ID!) {\n      rerouteChallenge(sessionId: $id) { previousNumber session { ...SessionFields } }\n    }\n  "): (typeof documents)["\n    mutation RerouteChallenge($id: ID!) {\n      rerouteChallenge(sessionId: $id) { previousNumber session { ...SessionFields } }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RetryWebhookDelivery($id: ID!, $deliveryId: ID!) {\n      retryWebhookDelivery(endpointId: $id, deliveryId: $deliveryId) { ...WebhookDeliveryFields }\n    }\n  "): (typeof documents)["\n    mutation RetryWebhookDelivery($id: ID!, $deliveryId: ID!) {\n      retryWebhookDelivery(endpointId: $id, deliveryId: $deliveryId) { ...WebhookDeliveryFields }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation RotateWebhookSecret($id: ID!) {\n      rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookEndpointFields } }\n    }\n  "): (typeof documents)["\n    mutation RotateWebhookSecret($id: ID!) {\n      rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookEndpointFields } }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation SendWebhookTestEvent($id: ID!) {\n      sendWebhookTestEvent(id: $id) { ...WebhookDeliveryFields }\n    }\n  "): (typeof documents)["\n    mutation SendWebhookTestEvent($id: ID!) {\n      sendWebhookTestEvent(id: $id) { ...WebhookDeliveryFields }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    query UsageSummary($period: String) {\n      usageSummary(period: $period) {\n        accountId tier periodStart periodEnd sessionsUsed billableSessions pendingSessions\n        unbilledSessions includedSessions allowanceRemaining unitPriceCents amountDueCents currency\n        byCredential { credentialId sessionsUsed billableSessions }\n      }\n    }\n  "): (typeof documents)["\n    query UsageSummary($period: String) {\n      usageSummary(period: $period) {\n        accountId tier periodStart periodEnd sessionsUsed billableSessions pendingSessions\n        unbilledSessions includedSessions allowanceRemaining unitPriceCents amountDueCents currency\n        byCredential { credentialId sessionsUsed billableSessions }\n      }\n    }\n  "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n    mutation WaitForVerdict($id: ID!, $timeout: Float) {\n      waitForVerdict(sessionId: $id, timeout: $timeout) { ...VerdictFields }\n    }\n  "): (typeof documents)["\n    mutation WaitForVerdict($id: ID!, $timeout: Float) {\n      waitForVerdict(sessionId: $id, timeout: $timeout) { ...VerdictFields }\n    }\n  "];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;