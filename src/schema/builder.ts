/**
 * The Pothos schema builder: configuration only, no types (each type lives in its own file).
 *
 * Authorization lives here, once, for every face: the `authenticated` and `scope` auth scopes are
 * computed from the context's principal, and a refusal becomes an AppError (`unauthenticated` or
 * `insufficient_scope` naming the scope), which each face maps to its own wire format.
 */
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { type AuthFailure } from '@pothos/plugin-scope-auth';
import type { Scope } from '../auth/principal.ts';
import { AppError } from '../errors/index.ts';
import type { GraphQLContext } from './context.ts';

/** The first scope a refusal names, so the client learns which scope to ask for. */
function missingScope(failure: AuthFailure): Scope | undefined {
  if ('failures' in failure) {
    for (const child of failure.failures) {
      const found = missingScope(child);
      if (found) return found;
    }
  }
  if ('scope' in failure && failure.scope === 'scope' && 'parameter' in failure) {
    return failure.parameter as Scope;
  }
  return undefined;
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { authenticated: boolean; scope: Scope };
  Scalars: { DateTime: { Input: Date; Output: Date } };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, RelayPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (context) => ({
      authenticated: context.principal !== null,
      scope: (scope: Scope) => context.principal?.scopes.has(scope) ?? false,
    }),
    unauthorizedError: (_parent, context, _info, result) => {
      if (!context.principal) return new AppError('unauthenticated');
      const scope = missingScope(result.failure);
      return scope
        ? new AppError('insufficient_scope', `This operation needs the scope ${scope}`, {
            extra: { scope },
          })
        : new AppError('forbidden');
    },
  },
  relay: { clientMutationId: 'omit', cursorType: 'String' },
  complexity: {
    defaultComplexity: 1,
    // Lists here are connections whose cost already scales with `first`; no second multiplier.
    defaultListMultiplier: 1,
    limit: { complexity: 5000, depth: 8, breadth: 100 },
    complexityError: (kind, result) =>
      new AppError(
        'query_too_complex',
        `Query exceeds maximum ${kind} (complexity ${result.complexity} of ${result.maxComplexity}, depth ${result.depth} of ${result.maxDepth}, breadth ${result.breadth} of ${result.maxBreadth})`,
      ),
  },
});

builder.scalarType('DateTime', {
  description: 'An instant, as an ISO 8601 UTC timestamp.',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
    if (Number.isNaN(date.getTime()))
      throw new AppError('invalid_request', 'Expected an ISO 8601 timestamp');
    return date;
  },
});
