/**
 * One schema operation as the compat layer runs it (issue 17 §1): its typed document (generated
 * by graphql-codegen from schema.graphql), one zod wire input (a /v1 body or query string, the
 * MCP tool's arguments), one zod wire output (the /v1 response in OpenAPI, the MCP outputSchema,
 * and what `toWire` must return), the mapping of input onto the document's variables, and
 * `toWire()` from the document's result to the wire output. The /v1 routes (v1-routes.ts,
 * webhook-routes.ts) and MCP tools (mcp-tools.ts) are tables over these modules.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { z } from 'zod';
import { CURSOR_MAX_LENGTH, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../domain/limits.ts';

/** Path parameters (`:id`, `:delivery_id`), or the id an MCP tool's arguments carry. */
export type Ids = Record<string, string>;

export interface Operation<
  Data,
  Variables extends Record<string, unknown>,
  Input extends z.ZodType,
  Output extends z.ZodType,
> {
  document: TypedDocumentNode<Data, Variables>;
  input: Input;
  output: Output;
  variables: (input: z.output<Input>, ids: Ids) => Variables;
  toWire: (data: Data) => z.output<Output>;
}

/** Defines an operation with its types inferred from its document and schemas. */
export const operation = <
  Data,
  Variables extends Record<string, unknown>,
  Input extends z.ZodType,
  Output extends z.ZodType,
>(
  op: Operation<Data, Variables, Input, Output>,
) => op;

/** The input of an operation that takes none beyond its path ids: /v1 refuses a body. */
export const noInput = z.strictObject({});

/** Paging on /v1 (query strings, so numbers are coerced): the domain's limits, stated once. */
export const paging = z.strictObject({
  after: z.string().min(1).max(CURSOR_MAX_LENGTH).optional(),
  limit: z.coerce.number().int().min(PAGE_SIZE_MIN).max(PAGE_SIZE_MAX).optional(),
});

/** A connection's nodes, in order. */
export const nodes = <T>(page: { edges: { node: T }[] }) => page.edges.map((edge) => edge.node);
