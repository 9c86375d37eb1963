import { Migration } from '@mikro-orm/migrations';

/**
 * Verified email for console users and the single-use mail links (verification, password reset).
 * Users who only ever signed in through a social provider had their email vouched for by it, so
 * they start verified; password users must verify (their address was never checked).
 */
export class Migration20261125100100_email_verification extends Migration {
  override name = 'Migration20261125100100_email_verification';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add column "email_verified_at" timestamptz null;`);
    this.addSql(
      `update "app_user" set "email_verified_at" = "created_at" where "password_hash" is null;`,
    );
    this.addSql(
      `create table "email_token" ("token_hash" varchar(64) not null, "user_id" varchar(255) not null, "purpose" text not null, "email" varchar(320) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("token_hash"));`,
    );
    this.addSql(`create index "email_token_user_id_index" on "email_token" ("user_id");`);
    this.addSql(`create index "email_token_expires_at_index" on "email_token" ("expires_at");`);
    this.addSql(
      `alter table "email_token" add constraint "email_token_purpose_check" check ("purpose" in ('verify_email', 'reset_password'));`,
    );
    this.addSql(
      `alter table "email_token" add constraint "email_token_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "email_token" cascade;`);
    this.addSql(`alter table "app_user" drop column "email_verified_at";`);
  }
}
