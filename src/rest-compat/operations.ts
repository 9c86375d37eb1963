/**
 * Runs schema operations in-process for the /v1 routes and the MCP tools, so every face goes
 * through the same resolvers — and therefore the same scope and tenant checks — as GraphQL.
 * Documents are parsed and validated once, when the routes are defined; a document that does not
 * fit the schema fails the start, not a request.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type DocumentNode, execute, type GraphQLSchema, parse, validate } from 'graphql';
import type { Principal } from '../auth/principal.ts';
import type { GraphQLContext, Services } from '../schema/context.ts';
import { toAppErrorFromGraphQL } from '../schema/errors.ts';
import { schema as defaultSchema } from '../schema/index.ts';

export function prepare(source: string, schema: GraphQLSchema = defaultSchema): DocumentNode {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length)
    throw new Error(`operation does not fit the schema: ${errors[0]!.message}\n${source}`);
  return document;
}

export class SchemaOperations {
  readonly #orm: MikroORM;
  readonly #services: Services;
  readonly #schema: GraphQLSchema;

  constructor(orm: MikroORM, services: Services, schema: GraphQLSchema = defaultSchema) {
    this.#orm = orm;
    this.#services = services;
    this.#schema = schema;
  }

  /** Executes `document` as `principal`; resolves to its data or throws the first AppError. */
  async run<T = Record<string, unknown>>(
    document: DocumentNode,
    principal: Principal,
    variables: Record<string, unknown> = {},
    signal?: AbortSignal,
  ): Promise<T> {
    const contextValue: GraphQLContext = {
      principal,
      em: this.#orm.em.fork() as EntityManager,
      services: this.#services,
      signal,
    };
    const result = await execute({
      schema: this.#schema,
      document,
      contextValue,
      variableValues: variables,
    });
    if (result.errors?.length) throw toAppErrorFromGraphQL(result.errors);
    return result.data as T;
  }
}
