import { Migration } from '@mikro-orm/migrations';

/**
 * What the console shows and the operator controls (issue 14): an agent's self-chosen name and
 * when it last used an access token, and an account disabled by the operator (`npm run admin --
 * disable <email>`), which can no longer sign in.
 */
export class Migration20261125110000_console extends Migration {
  override name = 'Migration20261125110000_console';

  override up(): void | Promise<void> {
    this.addSql(`alter table "agent_registration" add column "name" varchar(100) null;`);
    this.addSql(`alter table "agent_registration" add column "last_used_at" timestamptz null;`);
    this.addSql(`alter table "account" add column "disabled_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "account" drop column "disabled_at";`);
    this.addSql(`alter table "agent_registration" drop column "last_used_at";`);
    this.addSql(`alter table "agent_registration" drop column "name";`);
  }
}
