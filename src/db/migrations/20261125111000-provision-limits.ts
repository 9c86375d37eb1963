import { Migration } from '@mikro-orm/migrations';

/**
 * Provisioning limits in one round trip (issue 16): `latchkey_provision_limits` takes the
 * credential's transaction-scoped advisory lock (and, for a free account, the account's), then
 * counts — each statement of a volatile PL/pgSQL function takes a fresh snapshot under READ
 * COMMITTED, so the counts see every provision committed before the lock was granted, exactly as
 * the separate `select pg_advisory_xact_lock(...)` and count statements did. The locks are held
 * until the calling transaction ends, so an open can call it and insert in one statement.
 * Lock classes (5101 credential, 5102 account) and order (credential, then account) are those of
 * src/domain/sessions/limits.ts.
 */
export class Migration20261125111000_provision_limits extends Migration {
  override name = 'Migration20261125111000_provision_limits';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function latchkey_provision_limits(
  p_credential text, p_account text, p_window_start timestamptz, p_now timestamptz,
  p_count_active boolean, p_month_start timestamptz, p_month_end timestamptz)
returns table (recent int, oldest timestamptz, active int, soonest timestamptz, tier text,
  month_used int)
language plpgsql volatile as $fn$
#variable_conflict use_column
declare
  v_tier text;
begin
  perform pg_advisory_xact_lock(5101, hashtext(p_credential));
  select a.tier into v_tier from account a where a.id = p_account;
  if v_tier = 'free' then
    perform pg_advisory_xact_lock(5102, hashtext(p_account));
  end if;
  return query
    select r.n, r.oldest_at, c.n, c.soonest_at, v_tier,
      case when v_tier = 'free' then (
        select count(*)::int from usage_event e
        where e.account_id = p_account and e.occurred_at >= p_month_start
          and e.occurred_at < p_month_end) end
    from (select count(*)::int as n, min(e.occurred_at) as oldest_at from usage_event e
          where e.credential_id = p_credential and e.occurred_at > p_window_start) as r,
         (select count(*)::int as n, min(s.expires_at) as soonest_at from challenge_session s
          where p_count_active and s.credential_id = p_credential and s.state = 'active'
            and s.expires_at > p_now) as c;
end
$fn$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(
      'drop function if exists latchkey_provision_limits(text, text, timestamptz, timestamptz, boolean, timestamptz, timestamptz);',
    );
  }
}
