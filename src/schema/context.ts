/**
 * What every resolver receives: the caller (null when unauthenticated; scope-auth refuses it),
 * this operation's own EntityManager fork, and the services the domain operations need.
 * The three faces (GraphQL over HTTP and WebSocket, /v1, MCP) all build this same context.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../auth/principal.ts';
import type { Config } from '../config.ts';
import type { ChallengeDeps, DomainContext } from '../domain/context.ts';

export interface Services {
  config: Config;
  /** What the challenge-session operations need (src/domain/context.ts). */
  challenge: ChallengeDeps;
}

export interface GraphQLContext {
  principal: Principal | null;
  em: EntityManager;
  services: Services;
  /** Aborted when the caller goes away (long waits stop early). */
  signal?: AbortSignal;
  /** HTTP and SSE: aborted when the caller's credential is revoked (src/auth/revocation.ts). */
  revoked?: AbortSignal;
}

/** The domain context of this operation: the shared deps with the operation's own fork. */
export const domainOf = (context: GraphQLContext): DomainContext => ({
  ...context.services.challenge,
  em: context.em,
});
