/**
 * Every root field refuses a NUL character in its arguments (ids, cursors, names, targets) as the
 * client's mistake, before it can reach the database (PostgreSQL text cannot store U+0000) and
 * fail there as an internal error. Applied once to the built schema, so all three faces share it.
 */
import type { GraphQLFieldResolver, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { AppError } from '../errors/index.ts';

const holdsNul = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.includes('\u0000')
    : typeof value === 'object' && value !== null && Object.values(value).some(holdsNul);

export function refuseNulArguments(schema: GraphQLSchema) {
  for (const root of [
    schema.getQueryType(),
    schema.getMutationType(),
    schema.getSubscriptionType(),
  ]) {
    for (const field of Object.values((root as GraphQLObjectType | null)?.getFields() ?? {})) {
      for (const key of ['resolve', 'subscribe'] as const) {
        const inner = field[key] as GraphQLFieldResolver<unknown, unknown> | undefined;
        if (!inner) continue;
        field[key] = (source, args, context, info) => {
          if (holdsNul(args))
            throw new AppError('invalid_request', 'Text may not contain NUL characters');
          return inner(source, args, context, info);
        };
      }
    }
  }
}
