/**
 * graphql-codegen: typed documents for the operations the /v1 routes and MCP tools run, generated
 * from the committed schema.graphql (issue 15, issue 17 §1). Each `src/rest-compat/operations/*.ts`
 * writes its document with `graphql(…)`; `npm run codegen` writes their result and variable types
 * to `src/rest-compat/generated/`, committed. A test regenerates into a temporary folder and fails
 * when the output differs, and the typecheck fails when a schema change breaks a route's mapping.
 *
 * `CODEGEN_OUT` moves the output (that test's temporary folder); nothing else reads it.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const out = process.env.CODEGEN_OUT ?? 'src/rest-compat/generated/';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['src/rest-compat/operations/*.ts'],
  ignoreNoDocuments: false,
  emitLegacyCommonJSImports: false,
  importExtension: '.ts',
  generates: {
    [out]: {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        // Node strips types but runs no TypeScript enums: GraphQL enums become string unions.
        enumsAsTypes: true,
        useTypeImports: true,
        onlyOperationTypes: true,
        skipTypename: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
        strictScalars: true,
        scalars: { DateTime: 'string', ID: 'string' },
      },
    },
  },
};

export default config;
