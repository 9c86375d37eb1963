/**
 * Runs schema operations in-process for the /v1 routes and the MCP tools, so every face goes
 * through the same resolvers — and therefore the same scope and tenant checks — as GraphQL.
 *
 * The documents are graphql-codegen's typed documents (operations/*.ts), generated from the
 * committed schema.graphql, which a test keeps equal to the running schema; each is validated
 * once more against the running schema when its route is registered or it first runs, so a
 * document that does not fit fails loudly rather than answering half a shape.
 *
 * The documents are fixed, so each is compiled once (graphql-jit) into a function that runs the
 * same resolvers as graphql-js's `execute` would. graphql-js built a resolve-info and an argument
 * object for every field of every request: the largest part of a `/v1` request's allocation
 * (issue 16, bench/results/throughput.md, session 9). A test holds the compiled answers, data and
 * errors, to graphql-js's.
 */

import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type DocumentNode, type GraphQLSchema, validate } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Principal } from '../auth/principal.ts';
import type { GraphQLContext, Services } from '../schema/context.ts';
import { toAppErrorFromGraphQL } from '../schema/errors.ts';
import { schema as defaultSchema } from '../schema/index.ts';

export class SchemaOperations {
  readonly #orm: MikroORM;
  readonly #services: Services;
  readonly #schema: GraphQLSchema;
  readonly #compiled = new WeakMap<DocumentNode, CompiledQuery>();

  constructor(orm: MikroORM, services: Services, schema: GraphQLSchema = defaultSchema) {
    this.#orm = orm;
    this.#services = services;
    this.#schema = schema;
  }

  /** `document` compiled; throws when it does not fit the running schema (once per document). */
  check(document: DocumentNode): CompiledQuery {
    const known = this.#compiled.get(document);
    if (known) return known;
    const errors = validate(this.#schema, document);
    if (errors.length) throw new Error(`operation does not fit the schema: ${errors[0]!.message}`);
    const compiled = compileQuery(this.#schema, document);
    if (!isCompiledQuery(compiled)) {
      throw new Error(`operation does not compile: ${compiled.errors?.[0]?.message}`);
    }
    this.#compiled.set(document, compiled);
    return compiled;
  }

  /** Executes `document` as `principal`; resolves to its data or throws the first AppError. */
  async run<Data, Variables extends Record<string, unknown>>(
    document: TypedDocumentNode<Data, Variables>,
    principal: Principal,
    variables: Variables,
    signal?: AbortSignal,
  ): Promise<Data> {
    const compiled = this.check(document);
    const contextValue: GraphQLContext = {
      principal,
      em: this.#orm.em.fork() as EntityManager,
      services: this.#services,
      signal,
    };
    const result = await compiled.query(undefined, contextValue, variables);
    if (result.errors?.length) throw toAppErrorFromGraphQL(result.errors);
    if (!result.data) throw new Error('operation answered neither data nor errors');
    // graphql-js types every result as an untyped map; the document's generated type is what the
    // schema answers it (codegen checked the document against schema.graphql, validate() above
    // against the running schema). The compat layer's one cast, at its one boundary.
    return result.data as Data;
  }
}
