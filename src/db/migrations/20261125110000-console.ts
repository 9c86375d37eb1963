import { Migration } from '@mikro-orm/migrations';

/**
 * What the console shows and the operator controls (issue 14): an agent's self-chosen name and
 * when it last used an access token, and an account disabled by the operator (`npm run admin --
 * disable <email>`), which can no longer sign in; and the plan's timing: an upgrade to Per session
 * bills from the moment it is made (`billing_since`), a downgrade to Free waits for the next UTC
 * month (`scheduled_tier`, `scheduled_tier_at`), so what a month owes never vanishes mid-month.
 */
export class Migration20261125110000_console extends Migration {
  override name = 'Migration20261125110000_console';

  override up(): void | Promise<void> {
    this.addSql(`alter table "agent_registration" add column "name" varchar(100) null;`);
    this.addSql(`alter table "agent_registration" add column "last_used_at" timestamptz null;`);
    this.addSql(`alter table "account" add column "disabled_at" timestamptz null;`);
    this.addSql(`alter table "account" add column "billing_since" timestamptz null;`);
    this.addSql(`alter table "account" add column "scheduled_tier" text null;`);
    this.addSql(`alter table "account" add column "scheduled_tier_at" timestamptz null;`);
    this.addSql(
      `alter table "account" add constraint "account_scheduled_tier_check" check ("scheduled_tier" in ('free', 'per_session', 'enterprise'));`,
    );
    this.addSql(
      `create index "account_scheduled_tier_at_index" on "account" ("scheduled_tier_at") where "scheduled_tier_at" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "account_scheduled_tier_at_index";`);
    this.addSql(`alter table "account" drop constraint if exists "account_scheduled_tier_check";`);
    this.addSql(`alter table "account" drop column "scheduled_tier_at";`);
    this.addSql(`alter table "account" drop column "scheduled_tier";`);
    this.addSql(`alter table "account" drop column "billing_since";`);
    this.addSql(`alter table "account" drop column "disabled_at";`);
    this.addSql(`alter table "agent_registration" drop column "last_used_at";`);
    this.addSql(`alter table "agent_registration" drop column "name";`);
  }
}
