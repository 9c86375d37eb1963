import { Migration } from '@mikro-orm/migrations';

/**
 * Assignment takes the free number with the earliest `available_at`, then the lowest `e164`
 * (numbers/pool.ts). The index held (type, available_at) only, so every number sharing the
 * earliest `available_at` — the whole pool right after it is configured — was read and sorted
 * for each assignment: 9,603 rows and 3.8 ms of PostgreSQL per SMS session opened from a pool of
 * 10,000 (issue 16, bench/results/throughput.md, session 9). With `e164` in the index the scan
 * yields the numbers in the assignment's order and stops at the first it can lock.
 */
export class Migration20261128000100_number_assignment_order extends Migration {
  override name = 'Migration20261128000100_number_assignment_order';

  override up(): void | Promise<void> {
    this.addSql(`drop index "phone_number_assignable_index";`);
    this.addSql(
      `create index "phone_number_assignable_index" on "phone_number" ("type", "available_at", "e164") where "held_by" is null and "enabled";`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "phone_number_assignable_index";`);
    this.addSql(
      `create index "phone_number_assignable_index" on "phone_number" ("type", "available_at") where "held_by" is null and "enabled";`,
    );
  }
}
