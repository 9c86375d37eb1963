import { Migration } from '@mikro-orm/migrations';

export class Migration20261122050650_foundation extends Migration {
  override name = 'Migration20261122050650_foundation';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "account" ("id" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" varchar(200) not null, "tier" text not null default 'free', primary key ("id"));`,
    );

    this.addSql(
      `create table "server_secret" ("name" varchar(100) not null, "value" text not null, "created_at" timestamptz not null, primary key ("name"));`,
    );

    this.addSql(
      `create table "throttle_counter" ("key" varchar(200) not null, "count" int not null, "window_ends_at" timestamptz not null, primary key ("key"));`,
    );
    this.addSql(
      `create index "throttle_counter_window_ends_at_index" on "throttle_counter" ("window_ends_at");`,
    );

    this.addSql(
      `create table "app_user" ("id" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "account_id" varchar(255) not null, "email" varchar(320) not null, "password_hash" varchar(200) null, primary key ("id"));`,
    );
    this.addSql(`create index "app_user_account_id_index" on "app_user" ("account_id");`);
    this.addSql(`alter table "app_user" add constraint "app_user_email_unique" unique ("email");`);

    this.addSql(
      `create table "social_identity" ("id" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" varchar(255) not null, "issuer" varchar(500) not null, "subject" varchar(255) not null, primary key ("id"));`,
    );
    this.addSql(`create index "social_identity_user_id_index" on "social_identity" ("user_id");`);
    this.addSql(
      `alter table "social_identity" add constraint "social_identity_issuer_subject_unique" unique ("issuer", "subject");`,
    );

    this.addSql(
      `create table "console_session" ("token_hash" varchar(64) not null, "user_id" varchar(255) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("token_hash"));`,
    );
    this.addSql(`create index "console_session_user_id_index" on "console_session" ("user_id");`);
    this.addSql(
      `create index "console_session_expires_at_index" on "console_session" ("expires_at");`,
    );

    this.addSql(
      `alter table "account" add constraint "account_tier_check" check ("tier" in ('free', 'per_session', 'enterprise'));`,
    );

    this.addSql(
      `alter table "app_user" add constraint "app_user_account_id_foreign" foreign key ("account_id") references "account" ("id");`,
    );

    this.addSql(
      `alter table "social_identity" add constraint "social_identity_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "console_session" add constraint "console_session_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "app_user" drop constraint "app_user_account_id_foreign";`);
    this.addSql(`alter table "social_identity" drop constraint "social_identity_user_id_foreign";`);
    this.addSql(`alter table "console_session" drop constraint "console_session_user_id_foreign";`);

    this.addSql(`drop table if exists "account" cascade;`);
    this.addSql(`drop table if exists "server_secret" cascade;`);
    this.addSql(`drop table if exists "throttle_counter" cascade;`);
    this.addSql(`drop table if exists "app_user" cascade;`);
    this.addSql(`drop table if exists "social_identity" cascade;`);
    this.addSql(`drop table if exists "console_session" cascade;`);
  }
}
