/**
 * Every migration, in order. Listed by reference (not discovered by glob) so the same list works
 * under Node, vitest and any bundler. Add a new migration with `npm run migration:create -- name`,
 * then list its class here.
 */
import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122050650_foundation } from './20261122050650-foundation.ts';

const classes = [Migration20261122050650_foundation];

export const migrationsList: MigrationObject[] = classes.map((migration) => ({
  name: migration.name,
  class: migration,
}));
