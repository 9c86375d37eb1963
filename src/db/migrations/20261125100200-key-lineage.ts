import { Migration } from '@mikro-orm/migrations';

/**
 * API key lineage: the key that minted a key (cascading delete) and the agent registration a key
 * derives from. Existing keys get their lineage from `created_by`, down the whole tree.
 */
export class Migration20261125100200_key_lineage extends Migration {
  override name = 'Migration20261125100200_key_lineage';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "api_key" add column "parent_key_id" varchar(255) null, add column "registration_id" varchar(255) null;`,
    );
    this.addSql(
      `alter table "api_key" add constraint "api_key_parent_key_id_foreign" foreign key ("parent_key_id") references "api_key" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "api_key_parent_key_id_index" on "api_key" ("parent_key_id");`);
    this.addSql(`create index "api_key_registration_id_index" on "api_key" ("registration_id");`);
    this.addSql(
      `update "api_key" k set "parent_key_id" = k."created_by" where k."created_by" like 'key\\_%' and exists (select 1 from "api_key" p where p."id" = k."created_by");`,
    );
    this.addSql(
      `with recursive "tree" ("id", "registration_id") as (
         select "id", "created_by" from "api_key" where "created_by" like 'reg\\_%'
         union all
         select k."id", t."registration_id" from "api_key" k join "tree" t on k."parent_key_id" = t."id")
       update "api_key" k set "registration_id" = t."registration_id" from "tree" t where k."id" = t."id";`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_key" drop constraint "api_key_parent_key_id_foreign";`);
    this.addSql(`drop index "api_key_parent_key_id_index";`);
    this.addSql(`drop index "api_key_registration_id_index";`);
    this.addSql(
      `alter table "api_key" drop column "parent_key_id", drop column "registration_id";`,
    );
  }
}
