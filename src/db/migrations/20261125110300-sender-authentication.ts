import { Migration } from '@mikro-orm/migrations';

/**
 * Sender authentication (issue 21): each email keeps its SPF/DKIM/DMARC results (`sender`, JSON:
 * `{address, domain, authenticated, spf, dkim, dmarc}`) and, when a session that required an
 * authenticated sender refused it, why (`rejected`); a magic-link verdict keeps its link's
 * registrable domain; a session remembers whether it requires an authenticated sender.
 * Existing rows: SMS and older mail have no sender results (null), sessions do not require one.
 */
export class Migration20261125110300_sender_authentication extends Migration {
  override name = 'Migration20261125110300_sender_authentication';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "inbound_message" add column "sender" jsonb null, add column "rejected" varchar(32) null;`,
    );
    this.addSql(`alter table "verdict" add column "link_domain" varchar(255) null;`);
    this.addSql(
      `alter table "challenge_session" add column "require_authenticated_sender" boolean not null default false;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "inbound_message" drop column "sender", drop column "rejected";`);
    this.addSql(`alter table "verdict" drop column "link_domain";`);
    this.addSql(`alter table "challenge_session" drop column "require_authenticated_sender";`);
  }
}
