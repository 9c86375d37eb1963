import { Migration } from '@mikro-orm/migrations';

/**
 * Customer webhooks: endpoints (secrets sealed), the delivery outbox (one row per event and
 * endpoint, written in the transaction of the fact it reports), and Idempotency-Key reservations.
 */
export class Migration20261125100400_webhooks extends Migration {
  override name = 'Migration20261125100400_webhooks';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "webhook_endpoint" ("id" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "account_id" varchar(255) not null, "url" varchar(2048) not null, "events" text[] null, "secret" bytea not null, "previous_secret" bytea null, "previous_secret_expires_at" timestamptz null, "failing_since" timestamptz null, "disabled_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_endpoint_account_id_index" on "webhook_endpoint" ("account_id", "created_at");`,
    );
    this.addSql(
      `create table "webhook_delivery" ("id" varchar(255) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "endpoint_id" varchar(255) not null references "webhook_endpoint" ("id") on delete cascade, "account_id" varchar(255) not null, "event_type" text not null, "data" jsonb not null, "verdict_id" varchar(255) null, "status" text not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz null, "lease_until" timestamptz null, "last_status_code" int null, "last_error" varchar(255) null, "response_excerpt" varchar(512) null, "delivered_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_delivery_due_index" on "webhook_delivery" ("next_attempt_at") where "status" = 'pending';`,
    );
    this.addSql(
      `create index "webhook_delivery_endpoint_index" on "webhook_delivery" ("endpoint_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "webhook_delivery_pending_endpoint_index" on "webhook_delivery" ("endpoint_id", "next_attempt_at") where "status" = 'pending';`,
    );
    this.addSql(
      `create index "webhook_delivery_leased_index" on "webhook_delivery" ("endpoint_id") where "lease_until" is not null;`,
    );
    this.addSql(
      `create table "idempotency_key" ("credential_id" varchar(255) not null, "key" varchar(255) not null, "request_hash" varchar(64) not null, "status_code" int null, "response" bytea null, "created_at" timestamptz not null, primary key ("credential_id", "key"));`,
    );
    this.addSql(
      `create index "idempotency_key_created_at_index" on "idempotency_key" ("created_at");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql('drop table if exists "idempotency_key" cascade;');
    this.addSql('drop table if exists "webhook_delivery" cascade;');
    this.addSql('drop table if exists "webhook_endpoint" cascade;');
  }
}
