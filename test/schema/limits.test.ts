/**
 * GraphQL Armor's limits on ordinary operations. Latchkey's own schema is acyclic (its deepest
 * selection is 5), so depth is checked against a schema with a cycle, the shape a future
 * `Session.messages` would add; the rules and the error mapping are the ones the server uses.
 */
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, test } from 'vitest';
import { maskError } from '../../src/schema/errors.ts';
import { GRAPHQL_LIMITS, limitRules } from '../../src/schema/limits.ts';

const cyclic = buildSchema(`
  type Query { session: Session }
  type Session { id: ID, messages: [Message] }
  type Message { id: ID, session: Session }
`);

const codesOf = (query: string) =>
  validate(cyclic, parse(query), limitRules).map((error) => maskError(error).extensions.code);

function nested(levels: number): string {
  let selection = 'id';
  for (let i = 0; i < levels; i++) selection = `${i % 2 ? 'session' : 'messages'} { ${selection} }`;
  return `{ session { ${selection} } }`;
}

describe('GraphQL limits', () => {
  test('a selection 8 deep is allowed', () => {
    expect(codesOf(nested(GRAPHQL_LIMITS.depth - 2))).toEqual([]);
  });

  test('a selection deeper than 8 is query_too_complex', () => {
    expect(codesOf(nested(GRAPHQL_LIMITS.depth))).toEqual(['query_too_complex']);
  });

  test('depth through fragments is counted', () => {
    const query = `{ session { ...S } }
      fragment S on Session { messages { session { messages { session { ...T } } } } }
      fragment T on Session { messages { session { messages { id } } } }`;
    expect(codesOf(query)).toEqual(['query_too_complex']);
  });
});
