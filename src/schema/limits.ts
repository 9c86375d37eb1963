/**
 * The limits every ordinary GraphQL operation meets, from GraphQL Armor (maintained rules instead
 * of hand-written ones): depth 8, at most 15 aliases, cost 5000, and 2000 tokens per document
 * (counted while parsing, so a huge document is refused before any tree is built). Introspection
 * fields are exempt from depth and cost: graphql-js 16's specified MaxIntrospectionDepthRule bounds
 * their amplifying nesting instead, and the standard introspection query must answer.
 *
 * Every refusal says "… limit of N exceeded", which src/schema/errors.ts maps to the stable
 * `query_too_complex`. The Pothos complexity plugin (builder.ts) still prices connections by their
 * `first` argument on top.
 */
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLError, ValidationContext, ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export const GRAPHQL_LIMITS = { depth: 8, aliases: 15, cost: 5000, tokens: 2000 } as const;

// Armor's rules throw their refusal by default, which ends validation at the first limit and,
// outside its own envelop plugin, escapes as an unexpected error; reported through the validation
// context instead, a refusal is an ordinary validation error with the other rules' company.
const report = {
  propagateOnRejection: false,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) => context?.reportError(error),
  ],
};

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

export const tokenLimit = maxTokensPlugin({ n: GRAPHQL_LIMITS.tokens }) as Plugin;
