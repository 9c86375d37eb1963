/**
 * Every migration, in order. Listed by reference (not discovered by glob) so the same list works
 * under Node, vitest and any bundler. Add a new migration with `npm run migration:create -- name`,
 * then list its class here.
 */
import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122050650_foundation } from './20261122050650-foundation.ts';
import { Migration20261122052418_agent_auth } from './20261122052418-agent-auth.ts';
import { Migration20261122052852_challenge_sessions } from './20261122052852-challenge-sessions.ts';
import { Migration20261125100100_email_verification } from './20261125100100-email-verification.ts';
import { Migration20261125100200_key_lineage } from './20261125100200-key-lineage.ts';
import { Migration20261125100400_webhooks } from './20261125100400-webhooks.ts';
import { Migration20261125110000_console } from './20261125110000-console.ts';
import { Migration20261125110100_authenticators } from './20261125110100-authenticators.ts';
import { Migration20261125110300_sender_authentication } from './20261125110300-sender-authentication.ts';
import { Migration20261125110500_entity_names } from './20261125110500-entity-names.ts';
import { Migration20261125111000_provision_limits } from './20261125111000-provision-limits.ts';
import { Migration20261128000100_number_assignment_order } from './20261128000100-number-assignment-order.ts';

const classes = [
  Migration20261122050650_foundation,
  Migration20261122052418_agent_auth,
  Migration20261122052852_challenge_sessions,
  Migration20261125100100_email_verification,
  Migration20261125100200_key_lineage,
  Migration20261125100400_webhooks,
  Migration20261125110000_console,
  Migration20261125110100_authenticators,
  Migration20261125110300_sender_authentication,
  Migration20261125110500_entity_names,
  Migration20261125111000_provision_limits,
  Migration20261128000100_number_assignment_order,
];

export const migrationsList: MigrationObject[] = classes.map((migration) => ({
  name: migration.name,
  class: migration,
}));
