import { Migration } from '@mikro-orm/migrations';

/**
 * Authenticators (TOTP enrolments, their seeds sealed), the served time steps that keep a code
 * from being handed out twice, and the `totp` channel on sessions and usage.
 */
export class Migration20261125110100_authenticators extends Migration {
  override name = 'Migration20261125110100_authenticators';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "authenticator" ("id" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "account_id" varchar(255) not null, "target" varchar(2048) not null, "target_host" varchar(255) not null, "label" varchar(200) null, "issuer" varchar(200) null, "digits" int not null, "period" int not null, "algorithm" text not null, "secret" text not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "authenticator" add constraint "authenticator_algorithm_check" check ("algorithm" in ('SHA1', 'SHA256', 'SHA512'));`,
    );
    this.addSql(
      `alter table "authenticator" add constraint "authenticator_account_id_foreign" foreign key ("account_id") references "account" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create index "authenticator_account_id_target_host_index" on "authenticator" ("account_id", "target_host");`,
    );
    this.addSql(
      `create table "totp_step" ("authenticator_id" varchar(255) not null, "step" bigint not null, "session_id" varchar(255) not null, "served_at" timestamptz not null, primary key ("authenticator_id", "step"));`,
    );
    this.addSql(
      `alter table "totp_step" add constraint "totp_step_authenticator_id_foreign" foreign key ("authenticator_id") references "authenticator" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`alter table "challenge_session" add column "authenticator_id" varchar(255) null;`);
    this.addSql(
      `alter table "challenge_session" add constraint "challenge_session_authenticator_id_foreign" foreign key ("authenticator_id") references "authenticator" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "challenge_session" drop constraint "challenge_session_channel_check", add constraint "challenge_session_channel_check" check ("channel" in ('sms_otp', 'email_otp', 'magic_link', 'totp'));`,
    );
    this.addSql(
      `alter table "usage_event" drop constraint "usage_event_channel_check", add constraint "usage_event_channel_check" check ("channel" in ('sms_otp', 'email_otp', 'magic_link', 'totp'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "usage_event" where "channel" = 'totp';`);
    this.addSql(`delete from "challenge_session" where "channel" = 'totp';`);
    this.addSql(
      `alter table "usage_event" drop constraint "usage_event_channel_check", add constraint "usage_event_channel_check" check ("channel" in ('sms_otp', 'email_otp', 'magic_link'));`,
    );
    this.addSql(
      `alter table "challenge_session" drop constraint "challenge_session_channel_check", add constraint "challenge_session_channel_check" check ("channel" in ('sms_otp', 'email_otp', 'magic_link'));`,
    );
    this.addSql(
      `alter table "challenge_session" drop constraint "challenge_session_authenticator_id_foreign";`,
    );
    this.addSql(`alter table "challenge_session" drop column "authenticator_id";`);
    this.addSql(`drop table if exists "totp_step" cascade;`);
    this.addSql(`drop table if exists "authenticator" cascade;`);
  }
}
