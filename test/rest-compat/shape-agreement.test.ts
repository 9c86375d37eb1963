/**
 * The three faces agree on what a session and a verdict are (issue 17, "Done when"): the served
 * OpenAPI document (`GET /openapi.json`), the MCP tools' output schemas as the MCP SDK client lists
 * them, and the GraphQL schema as the standard introspection query answers it. Field names (the
 * wire's snake_case ↔ GraphQL's camelCase, `session_id` ↔ `id`), types (String/ID/DateTime ↔
 * string, Int ↔ integer, Boolean ↔ boolean, an enum ↔ the same values, an object ↔ an object
 * that agrees field by field) and nullability (a non-null GraphQL field is never null on the
 * wire; a nullable one is never promised present and non-null) must match.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  buildClientSchema,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getIntrospectionQuery,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { graphql, mcpClient } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

type Json = { [key: string]: unknown };

let t: TestApp;
let client: Client;
let openapi: { components: { schemas: Record<string, Json> } };
let schema: GraphQLSchema;
let tools: Record<string, Json>;

beforeAll(async () => {
  t = await startTestApp();
  const key = await apiKey(t, await newAccount(t));
  openapi = await (await fetch(`${t.baseUrl}/openapi.json`)).json();
  const introspection = await graphql(t, key, getIntrospectionQuery());
  expect(introspection.status).toBe(200);
  schema = buildClientSchema(introspection.body.data);
  client = await mcpClient(t, key);
  const listed = await client.listTools();
  tools = Object.fromEntries(listed.tools.map((tool) => [tool.name, tool.outputSchema as Json]));
});
afterAll(async () => {
  await client?.close();
  await t?.stop();
});

/** A JSON Schema reduced to what the faces must agree on, with `$ref`s resolved. */
interface Shape {
  types: string[];
  enum?: string[];
  properties?: Record<string, Shape>;
  required?: string[];
  items?: Shape;
}

function shape(node: Json): Shape {
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace('#/components/schemas/', '');
    return shape(openapi.components.schemas[name]!);
  }
  const variants = (node.anyOf ?? node.oneOf) as Json[] | undefined;
  if (variants) {
    const parts = variants.map(shape);
    const merged = parts.find((part) => !part.types.includes('null') || part.types.length > 1);
    return {
      ...(merged ?? { types: [] }),
      types: [...new Set(parts.flatMap((part) => part.types))].sort(),
    };
  }
  const types = ([] as string[]).concat((node.type as string | string[] | undefined) ?? []);
  const values = (node.enum ?? (node.const !== undefined ? [node.const] : undefined)) as
    | unknown[]
    | undefined;
  const enumValues = values?.filter((value): value is string => typeof value === 'string');
  if (values?.includes(null) && !types.includes('null')) types.push('null');
  const properties = node.properties as Record<string, Json> | undefined;
  return {
    types: [...new Set(types)].sort(),
    ...(enumValues?.length ? { enum: [...enumValues].sort() } : {}),
    ...(properties
      ? {
          properties: Object.fromEntries(
            Object.entries(properties).map(([name, value]) => [name, shape(value)]),
          ),
          required: [...((node.required as string[] | undefined) ?? [])].sort(),
        }
      : {}),
    ...(node.items ? { items: shape(node.items as Json) } : {}),
  };
}

const camel = (name: string) =>
  name.replace(/_([a-z])/g, (_m, letter: string) => letter.toUpperCase());
/** Wire names that are not the camelCase of the GraphQL field's. */
const renamed: Record<string, string> = { session_id: 'id', message_id: 'id', parsed: 'verdict' };

/** Every way `wire` (an object shape) disagrees with the GraphQL object type `type`. */
function disagreements(wire: Shape, type: GraphQLObjectType, path = type.name): string[] {
  const problems: string[] = [];
  const fields = type.getFields();
  const wireNames = Object.keys(wire.properties ?? {});
  const graphqlName = (name: string) =>
    renamed[name] && fields[renamed[name]] && !fields[camel(name)] ? renamed[name] : camel(name);
  for (const name of wireNames) {
    const field: GraphQLField<unknown, unknown> | undefined = fields[graphqlName(name)];
    if (!field) {
      problems.push(`${path}.${name}: no GraphQL field ${graphqlName(name)}`);
      continue;
    }
    problems.push(
      ...fieldDisagreements(
        wire.properties![name]!,
        wire.required?.includes(name) ?? false,
        field.type,
        `${path}.${name}`,
      ),
    );
  }
  // Every scalar or enum field of the GraphQL type is on the wire under its name.
  const onWire = new Set(wireNames.map(graphqlName));
  for (const field of Object.values(fields)) {
    if (!onWire.has(field.name))
      problems.push(`${path}: GraphQL field ${field.name} is not on the wire`);
  }
  return problems;
}

function fieldDisagreements(
  wire: Shape,
  required: boolean,
  graphqlType: GraphQLOutputType,
  path: string,
): string[] {
  const nullOnWire = wire.types.includes('null');
  const nonNull = isNonNullType(graphqlType);
  const named = nonNull ? graphqlType.ofType : graphqlType;
  const problems: string[] = [];
  if (nonNull && nullOnWire) problems.push(`${path}: null on the wire, non-null in GraphQL`);
  if (!nonNull && required && !nullOnWire)
    problems.push(`${path}: always present and non-null on the wire, nullable in GraphQL`);
  const types = wire.types.filter((type) => type !== 'null');
  if (isListType(named)) {
    if (types.join() !== 'array' || !wire.items) return [...problems, `${path}: not an array`];
    return [...problems, ...fieldDisagreements(wire.items, true, named.ofType, `${path}[]`)];
  }
  if (isObjectType(named)) {
    if (types.join() !== 'object') return [...problems, `${path}: not an object on the wire`];
    return [...problems, ...disagreements(wire, named, path)];
  }
  if (isEnumType(named)) {
    const values = named
      .getValues()
      .map((value) => value.name)
      .sort();
    if (types.join() !== 'string' || JSON.stringify(wire.enum) !== JSON.stringify(values))
      problems.push(`${path}: enum ${values} in GraphQL, ${JSON.stringify(wire)} on the wire`);
    return problems;
  }
  if (isScalarType(named)) {
    const expected =
      { Int: 'integer', Float: 'number', Boolean: 'boolean' }[named.name] ?? 'string';
    // A GraphQL String may be narrowed to an enum on the wire (the wire promises the values).
    if (types.join() !== expected)
      problems.push(`${path}: ${named.name} in GraphQL, ${types} on the wire`);
  }
  return problems;
}

const component = (name: string) => shape(openapi.components.schemas[name]!);
const objectType = (name: string) => schema.getType(name) as GraphQLObjectType;

describe('OpenAPI ↔ GraphQL', () => {
  test('a session: OpenAPI Session and GraphQL ChallengeSession agree on every field', () => {
    expect(disagreements(component('Session'), objectType('ChallengeSession'))).toEqual([]);
  });

  test('a verdict: OpenAPI Verdict and GraphQL VerdictResult agree on every field', () => {
    expect(disagreements(component('Verdict'), objectType('VerdictResult'))).toEqual([]);
  });

  test('a message: OpenAPI Message and GraphQL Message agree on every field', () => {
    expect(disagreements(component('Message'), objectType('Message'))).toEqual([]);
  });

  test('the comparison notices a disagreement in a name, a type or nullability', () => {
    const session = component('Session');
    const props = session.properties!;
    const altered: Shape = {
      ...session,
      properties: {
        ...props,
        reroute_count: { types: ['string'] },
        created_at: { types: ['null', 'string'] },
        target_url: props.target!,
      },
      required: [...session.required!, 'number'],
    };
    delete altered.properties!.target;
    expect(disagreements(altered, objectType('ChallengeSession')).sort()).toEqual([
      'ChallengeSession.created_at: null on the wire, non-null in GraphQL',
      'ChallengeSession.number: always present and non-null on the wire, nullable in GraphQL',
      'ChallengeSession.reroute_count: Int in GraphQL, string on the wire',
      'ChallengeSession.target_url: no GraphQL field targetUrl',
      'ChallengeSession: GraphQL field target is not on the wire',
    ]);
  });
});

describe('MCP ↔ OpenAPI (and so ↔ GraphQL)', () => {
  /** The MCP shape must equal OpenAPI's for every field it has. */
  function sameFields(
    mcp: Shape,
    openapiShape: Shape,
    fullObject: boolean,
    narrowed: string[] = [],
  ) {
    for (const [name, property] of Object.entries(mcp.properties ?? {})) {
      expect(property, name).toEqual(openapiShape.properties?.[name]);
      if (narrowed.includes(name)) continue;
      expect(mcp.required?.includes(name), `${name} required`).toBe(
        openapiShape.required?.includes(name),
      );
    }
    if (fullObject) expect(mcp).toEqual(openapiShape);
  }

  test('wait_for_verdict answers exactly the OpenAPI Verdict', () => {
    sameFields(shape(tools.wait_for_verdict!), component('Verdict'), true);
  });

  test('list_numbers answers OpenAPI Sessions, and open_challenge a subset of a Session', () => {
    sameFields(shape(tools.list_numbers!).properties!.sessions!.items!, component('Session'), true);
    const open = shape(tools.open_challenge!);
    expect(Object.keys(open.properties!).length).toBeGreaterThan(5);
    sameFields(open, component('Session'), false);
    // provision_number opens sms_otp sessions only, which always have a number.
    sameFields(shape(tools.provision_number!), component('Session'), false, ['number']);
  });

  test("get_messages answers OpenAPI Messages, and release_number a session's state", () => {
    sameFields(shape(tools.get_messages!).properties!.messages!.items!, component('Message'), true);
    expect(shape(tools.release_number!).properties!.status).toEqual(
      component('Session').properties!.state,
    );
  });

  test('the MCP shapes agree with GraphQL through OpenAPI: a session, a verdict', () => {
    expect(disagreements(shape(tools.wait_for_verdict!), objectType('VerdictResult'))).toEqual([]);
    const sessions = shape(tools.list_numbers!).properties!.sessions!.items!;
    expect(disagreements(sessions, objectType('ChallengeSession'))).toEqual([]);
  });
});
