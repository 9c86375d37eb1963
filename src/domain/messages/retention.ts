/**
 * Retention: raw bodies and parsed codes and links are erased once MESSAGE_RETENTION has passed
 * since receipt; the metadata (who, when, what kind of result, whether consumed) stays for usage
 * and support. Conditional updates in bounded batches, so several instances may run it at once.
 */
import type { InboundMessage } from '../../entities/inbound-message.ts';
import type { RowOf } from '../../entities/row.ts';
import type { DomainContext } from '../context.ts';

const BATCH = 1000;

export async function purgeExpiredBodies(ctx: DomainContext): Promise<number> {
  const now = ctx.clock();
  const cutoff = new Date(now.getTime() - ctx.settings.retention * 1000);
  const messages = await ctx.em.execute<Pick<RowOf<InboundMessage>, 'id'>[]>(
    `update inbound_message set raw_body = null, raw_purged_at = ?
     where id in (
       select id from inbound_message
       where raw_body is not null and received_at <= ?
       order by received_at
       limit ?
       for update skip locked)
     returning id`,
    [now, cutoff, BATCH],
  );
  await ctx.em.execute(
    `update verdict set secret = null
     where id in (
       select id from verdict
       where secret is not null and received_at <= ?
       order by received_at
       limit ?
       for update skip locked)`,
    [cutoff, BATCH],
  );
  return messages.length;
}
