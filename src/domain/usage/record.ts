/**
 * Writing usage: one event per successful assignment, in the provisioning transaction — here for
 * a reroute; an open writes its event in the same statement as the session (sessions/open.ts).
 * Settlement happens where the session's outcome is decided — `billable` when a code or link is
 * stored (messages/receive.ts), `not_billed` when the session ends without one (sessions/close.ts,
 * sessions/expire.ts); both move only `pending` events, so they are idempotent and cannot undo
 * each other.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../entities/base.ts';
import type { SessionChannel } from '../../entities/challenge-session.ts';
import type { UsageKind } from '../../entities/usage-event.ts';

export interface ProvisionRecord {
  accountId: string;
  credentialId: string;
  agentId: string;
  sessionId: string;
  kind: UsageKind;
  channel: SessionChannel;
  /** True when the session already yielded a code (a reroute after one): billable at once. */
  billable: boolean;
}

export async function recordProvision(tx: EntityManager, record: ProvisionRecord, now: Date) {
  await tx.execute(
    `insert into usage_event (id, created_at, updated_at, account_id, credential_id, agent_id,
       session_id, kind, channel, status, occurred_at, settled_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      newId('use'),
      now,
      now,
      record.accountId,
      record.credentialId,
      record.agentId,
      record.sessionId,
      record.kind,
      record.channel,
      record.billable ? 'billable' : 'pending',
      now,
      record.billable ? now : null,
    ],
  );
}
