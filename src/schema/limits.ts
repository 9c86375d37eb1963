/**
 * The limits every ordinary GraphQL operation meets, from GraphQL Armor (maintained rules instead
 * of hand-written ones): depth 8, at most 15 aliases, cost 5000, and 2000 tokens per document
 * (counted while parsing, so a huge document is refused before any tree is built). Introspection
 * fields are exempt from depth and cost: graphql-js 16's specified MaxIntrospectionDepthRule bounds
 * their amplifying nesting instead, and the standard introspection query must answer.
 *
 * Every refusal is re-raised carrying `extensions.code: query_too_complex` (src/schema/errors.ts
 * reads the code from there, never from the wording). The Pothos complexity plugin (builder.ts)
 * still prices connections by their `first` argument on top, and refuses with the same code.
 */
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import {
  GraphQLError,
  MaxIntrospectionDepthRule,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

export const GRAPHQL_LIMITS = { depth: 8, aliases: 15, cost: 5000, tokens: 2000 } as const;

/** Armor's refusal, as the same error carrying its stable code. */
const tooComplex = (error: GraphQLError) =>
  new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, code: 'query_too_complex' },
  });

// Armor's rules throw their refusal by default, which ends validation at the first limit and,
// outside its own envelop plugin, escapes as an unexpected error; reported through the validation
// context instead, a refusal is an ordinary validation error with the other rules' company.
const report = {
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(tooComplex(error)),
  ],
};

/**
 * graphql-js's own bound on introspection nesting, refusing with the same code: the rule reports
 * through a context whose `reportError` adds it. Put in place of the specified rule (server.ts).
 */
export const introspectionDepthRule: ValidationRule = (context) =>
  MaxIntrospectionDepthRule(
    new Proxy(context, {
      get: (target, property) =>
        property === 'reportError'
          ? (error: GraphQLError) => target.reportError(tooComplex(error))
          : Reflect.get(target, property, target),
    }),
  );

export const limitRules: ValidationRule[] = [
  maxDepthRule({
    n: GRAPHQL_LIMITS.depth,
    ignoreIntrospection: true,
    flattenFragments: true,
    ...report,
  }),
  maxAliasesRule({ n: GRAPHQL_LIMITS.aliases, ...report }),
  costLimitRule({ maxCost: GRAPHQL_LIMITS.cost, ignoreIntrospection: true, ...report }),
] as unknown as ValidationRule[];

// The token limit refuses while parsing, where there is no validation context: the refusal is
// thrown (as the parser's own syntax errors are), carrying its code.
export const tokenLimit = maxTokensPlugin({
  n: GRAPHQL_LIMITS.tokens,
  propagateOnRejection: false,
  onReject: [
    (_context: unknown, error: GraphQLError) => {
      throw tooComplex(error);
    },
  ],
}) as Plugin;
