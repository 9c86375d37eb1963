import { Migration } from '@mikro-orm/migrations';

export class Migration20261122052418_agent_auth extends Migration {
  override name = 'Migration20261122052418_agent_auth';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "api_key" ("id" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "account_id" varchar(255) not null, "name" varchar(100) not null, "secret_hash" varchar(64) not null, "hint" varchar(40) not null, "scope" varchar(200) not null, "created_by" varchar(100) not null, "last_used_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "api_key_account_id_index" on "api_key" ("account_id");`);
    this.addSql(
      `alter table "api_key" add constraint "api_key_secret_hash_unique" unique ("secret_hash");`,
    );

    this.addSql(
      `create table "oidc_payload" ("id" varchar(64) not null, "model" varchar(40) not null, "payload" jsonb not null, "grant_id" varchar(100) null, "account_id" varchar(100) null, "expires_at" timestamptz null, "consumed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "oidc_payload_grant_id_index" on "oidc_payload" ("grant_id");`);
    this.addSql(`create index "oidc_payload_account_id_index" on "oidc_payload" ("account_id");`);
    this.addSql(`create index "oidc_payload_expires_at_index" on "oidc_payload" ("expires_at");`);

    this.addSql(
      `create table "security_event_receipt" ("id" varchar(64) not null, "issuer" varchar(500) not null, "received_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "security_event_receipt_expires_at_index" on "security_event_receipt" ("expires_at");`,
    );

    this.addSql(
      `create table "signing_key" ("kid" varchar(100) not null, "generation" int not null, "alg" varchar(20) not null, "private_jwk" text not null, "created_at" timestamptz not null, "activates_at" timestamptz not null, "retires_at" timestamptz null, primary key ("kid"));`,
    );
    this.addSql(
      `alter table "signing_key" add constraint "signing_key_generation_unique" unique ("generation");`,
    );

    this.addSql(
      `create table "agent_registration" ("id" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "type" varchar(40) not null, "status" text not null default 'pending', "account_id" varchar(255) null, "claimed_by_id" varchar(255) null, "claim_email" varchar(320) not null, "scope" varchar(200) not null, "claim_token_hash" varchar(64) not null, "claim_attempt_token_hash" varchar(64) not null, "user_code_hash" varchar(64) not null, "failed_attempts" int not null default 0, "last_polled_at" timestamptz null, "code_expires_at" timestamptz not null, "claim_token_expires_at" timestamptz not null, "claimed_at" timestamptz null, "tokens_issued_at" timestamptz null, "revoked_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "agent_registration_account_id_index" on "agent_registration" ("account_id");`,
    );
    this.addSql(
      `alter table "agent_registration" add constraint "agent_registration_claim_token_hash_unique" unique ("claim_token_hash");`,
    );
    this.addSql(
      `alter table "agent_registration" add constraint "agent_registration_claim_attempt_token_hash_unique" unique ("claim_attempt_token_hash");`,
    );
    this.addSql(
      `create index "agent_registration_claim_token_expires_at_index" on "agent_registration" ("claim_token_expires_at");`,
    );

    this.addSql(
      `alter table "api_key" add constraint "api_key_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "agent_registration" add constraint "agent_registration_account_id_foreign" foreign key ("account_id") references "account" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "agent_registration" add constraint "agent_registration_claimed_by_id_foreign" foreign key ("claimed_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "agent_registration" add constraint "agent_registration_status_check" check ("status" in ('pending', 'claimed', 'expired', 'revoked'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_key" cascade;`);
    this.addSql(`drop table if exists "oidc_payload" cascade;`);
    this.addSql(`drop table if exists "security_event_receipt" cascade;`);
    this.addSql(`drop table if exists "signing_key" cascade;`);
    this.addSql(`drop table if exists "agent_registration" cascade;`);
  }
}
