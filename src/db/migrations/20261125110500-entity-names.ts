import { Migration } from '@mikro-orm/migrations';

/**
 * The webhook delivery's foreign key gets the name its entity gives it (issue 17 §1: the entities
 * describe every table, and test/db/entities-match-migrations.test.ts holds the migrated schema to
 * them). The webhooks migration declared the key inline, so PostgreSQL named it `…_fkey`; the
 * constraint itself is unchanged.
 */
export class Migration20261125110500_entity_names extends Migration {
  override name = 'Migration20261125110500_entity_names';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "webhook_delivery" rename constraint "webhook_delivery_endpoint_id_fkey" to "webhook_delivery_endpoint_id_foreign";`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "webhook_delivery" rename constraint "webhook_delivery_endpoint_id_foreign" to "webhook_delivery_endpoint_id_fkey";`,
    );
  }
}
