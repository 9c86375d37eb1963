import { Migration } from '@mikro-orm/migrations';

export class Migration20261122052852_challenge_sessions extends Migration {
  override name = 'Migration20261122052852_challenge_sessions';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "account_pricing" ("account_id" varchar(255) not null, "unit_price_cents" int not null, "included_sessions" int not null default 0, "updated_at" timestamptz not null, primary key ("account_id"));`,
    );

    this.addSql(
      `create table "challenge_session" ("id" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "account_id" varchar(255) not null, "credential_id" varchar(255) not null, "agent_id" varchar(255) not null, "channel" text not null, "state" text not null default 'active', "target" varchar(2048) null, "target_domain" varchar(255) null, "number" varchar(16) null, "number_type" text null, "inbox_address" varchar(320) null, "expires_at" timestamptz not null, "ended_at" timestamptz null, "first_code_at" timestamptz null, "reroute_count" int not null default 0, primary key ("id"));`,
    );
    this.addSql(
      `alter table "challenge_session" add constraint "challenge_session_inbox_address_unique" unique ("inbox_address");`,
    );
    this.addSql(
      `create index "challenge_session_account_id_created_at_index" on "challenge_session" ("account_id", "created_at");`,
    );
    this.addSql(
      `create unique index "challenge_session_active_number_unique" on "challenge_session" ("number") where "state" = 'active';`,
    );
    this.addSql(
      `create index "challenge_session_active_credential_index" on "challenge_session" ("credential_id", "expires_at") where "state" = 'active';`,
    );
    this.addSql(
      `create index "challenge_session_active_expiry_index" on "challenge_session" ("expires_at") where "state" = 'active';`,
    );

    this.addSql(
      `create table "inbound_message" ("id" varchar(255) not null, "session_id" varchar(255) null, "medium" text not null, "carrier" text not null, "to_address" varchar(320) not null, "from_address" varchar(320) not null, "dedupe_key" varchar(64) null, "raw_body" bytea null, "size_bytes" int not null, "outcome" text not null, "received_at" timestamptz not null, "raw_purged_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "inbound_message" add constraint "inbound_message_dedupe_key_unique" unique ("dedupe_key");`,
    );
    this.addSql(
      `create index "inbound_message_session_id_received_at_index" on "inbound_message" ("session_id", "received_at");`,
    );
    this.addSql(
      `create index "inbound_message_retained_index" on "inbound_message" ("received_at") where "raw_body" is not null;`,
    );

    this.addSql(
      `create table "phone_number" ("e164" varchar(16) not null, "type" text not null, "enabled" boolean not null default true, "held_by" varchar(255) null, "available_at" timestamptz not null, "last_assigned_at" timestamptz null, "created_at" timestamptz not null, primary key ("e164"));`,
    );
    this.addSql(
      `alter table "phone_number" add constraint "phone_number_held_by_unique" unique ("held_by");`,
    );
    this.addSql(
      `create index "phone_number_assignable_index" on "phone_number" ("type", "available_at") where "held_by" is null and "enabled";`,
    );

    this.addSql(
      `create table "usage_event" ("id" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "account_id" varchar(255) not null, "credential_id" varchar(255) not null, "agent_id" varchar(255) not null, "session_id" varchar(255) not null, "kind" text not null, "channel" text not null, "status" text not null, "occurred_at" timestamptz not null, "settled_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "usage_event_account_id_occurred_at_index" on "usage_event" ("account_id", "occurred_at");`,
    );
    this.addSql(
      `create index "usage_event_credential_id_occurred_at_index" on "usage_event" ("credential_id", "occurred_at");`,
    );
    this.addSql(
      `create index "usage_event_pending_index" on "usage_event" ("session_id") where "status" = 'pending';`,
    );

    this.addSql(
      `create table "verdict" ("id" varchar(255) not null, "message_id" varchar(255) not null, "session_id" varchar(255) not null, "kind" text not null, "secret" bytea null, "webauthn_required" boolean not null, "confidence" double precision not null, "received_at" timestamptz not null, "consumed_at" timestamptz null, "consumed_by" varchar(255) null, "published_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "verdict" add constraint "verdict_message_id_unique" unique ("message_id");`,
    );
    this.addSql(
      `create index "verdict_unconsumed_index" on "verdict" ("session_id", "received_at") where "consumed_at" is null;`,
    );
    this.addSql(
      `create index "verdict_unpublished_index" on "verdict" ("received_at") where "published_at" is null;`,
    );

    this.addSql(
      `alter table "account_pricing" add constraint "account_pricing_account_id_foreign" foreign key ("account_id") references "account" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "challenge_session" add constraint "challenge_session_account_id_foreign" foreign key ("account_id") references "account" ("id");`,
    );
    this.addSql(
      `alter table "challenge_session" add constraint "challenge_session_channel_check" check ("channel" in ('sms_otp', 'email_otp', 'magic_link'));`,
    );
    this.addSql(
      `alter table "challenge_session" add constraint "challenge_session_state_check" check ("state" in ('active', 'completed', 'expired'));`,
    );
    this.addSql(
      `alter table "challenge_session" add constraint "challenge_session_number_type_check" check ("number_type" in ('synthetic', 'programmable'));`,
    );

    this.addSql(
      `alter table "inbound_message" add constraint "inbound_message_session_id_foreign" foreign key ("session_id") references "challenge_session" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "inbound_message" add constraint "inbound_message_medium_check" check ("medium" in ('sms', 'email'));`,
    );
    this.addSql(
      `alter table "inbound_message" add constraint "inbound_message_carrier_check" check ("carrier" in ('twilio', 'synthetic', 'smtp'));`,
    );
    this.addSql(
      `alter table "inbound_message" add constraint "inbound_message_outcome_check" check ("outcome" in ('otp_code', 'magic_link', 'webauthn_required', 'none'));`,
    );

    this.addSql(
      `alter table "phone_number" add constraint "phone_number_type_check" check ("type" in ('synthetic', 'programmable'));`,
    );

    this.addSql(
      `alter table "usage_event" add constraint "usage_event_account_id_foreign" foreign key ("account_id") references "account" ("id");`,
    );
    this.addSql(
      `alter table "usage_event" add constraint "usage_event_session_id_foreign" foreign key ("session_id") references "challenge_session" ("id");`,
    );
    this.addSql(
      `alter table "usage_event" add constraint "usage_event_kind_check" check ("kind" in ('session_opened', 'session_rerouted'));`,
    );
    this.addSql(
      `alter table "usage_event" add constraint "usage_event_channel_check" check ("channel" in ('sms_otp', 'email_otp', 'magic_link'));`,
    );
    this.addSql(
      `alter table "usage_event" add constraint "usage_event_status_check" check ("status" in ('pending', 'billable', 'not_billed'));`,
    );

    this.addSql(
      `alter table "verdict" add constraint "verdict_message_id_foreign" foreign key ("message_id") references "inbound_message" ("id");`,
    );
    this.addSql(
      `alter table "verdict" add constraint "verdict_session_id_foreign" foreign key ("session_id") references "challenge_session" ("id");`,
    );
    this.addSql(
      `alter table "verdict" add constraint "verdict_kind_check" check ("kind" in ('otp_code', 'magic_link', 'webauthn_required'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "inbound_message" drop constraint "inbound_message_session_id_foreign";`,
    );
    this.addSql(`alter table "usage_event" drop constraint "usage_event_session_id_foreign";`);
    this.addSql(`alter table "verdict" drop constraint "verdict_session_id_foreign";`);
    this.addSql(`alter table "verdict" drop constraint "verdict_message_id_foreign";`);

    this.addSql(`drop table if exists "account_pricing" cascade;`);
    this.addSql(`drop table if exists "challenge_session" cascade;`);
    this.addSql(`drop table if exists "inbound_message" cascade;`);
    this.addSql(`drop table if exists "phone_number" cascade;`);
    this.addSql(`drop table if exists "usage_event" cascade;`);
    this.addSql(`drop table if exists "verdict" cascade;`);
  }
}
