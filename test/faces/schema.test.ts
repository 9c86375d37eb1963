/** The GraphQL schema is committed, printed, and describes every type and field. */
import { readFileSync } from 'node:fs';
import { isEnumType, isInputObjectType, isObjectType, printSchema } from 'graphql';
import { expect, test } from 'vitest';
import { schema } from '../../src/schema/index.ts';

test('the printed schema matches the committed schema.graphql (npm run schema:print updates it)', () => {
  const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
  expect(printSchema(schema)).toBe(committed.trimEnd());
});

// The Relay plugin generates the connection plumbing (…Connection, …Edge, PageInfo) with the
// standard Relay meaning; everything Latchkey defines must describe itself.
const generated = /(Connection|Edge|PageInfo)$/;

test('every type, field, argument and enum Latchkey defines has a description', () => {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || generated.test(type.name)) continue;
    if (['String', 'Boolean', 'Int', 'Float', 'ID'].includes(type.name)) continue;
    if (!type.description) missing.push(type.name);
    if (isObjectType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) {
          if (!arg.description && !['first', 'after', 'last', 'before'].includes(arg.name)) {
            missing.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      }
    }
    if (isEnumType(type) && !type.description) missing.push(type.name);
  }
  expect(missing).toEqual([]);
});
