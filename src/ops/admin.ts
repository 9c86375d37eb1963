/**
 * Operator command for accounts (the console has no staff pages; staff act from a shell):
 *
 *   npm run admin -- list                      every account: id, plan, users, disabled or not
 *   npm run admin -- set-plan <email> <plan>   free, per_session or enterprise, at once
 *   npm run admin -- disable <email>           the account can no longer sign in; its agents are
 *                                              revoked and its API keys deleted
 *
 * It reads the same environment as the service (DATABASE_URL, DATA_DIR, SECRETS_KEY). On the
 * embedded database run it while the service is stopped (one process owns DATA_DIR). Revocations
 * are committed at once, so every new request of a disabled account's agents is refused from then
 * on; a running instance ends their open connections at its next credential re-check
 * (CREDENTIAL_RECHECK_INTERVAL), since this process is not on the instances' event bus.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/orm.ts';
import { revokeRegistration } from '../domain/agents/registrations.ts';
import { setPlanByOperator } from '../domain/usage/plan.ts';
import { billingTiers } from '../entities/account.ts';
import { AppError } from '../errors/index.ts';

export interface AccountLine {
  id: string;
  name: string;
  tier: string;
  emails: string[];
  disabledAt: Date | null;
}

export async function listAccounts(em: EntityManager): Promise<AccountLine[]> {
  const rows = await em.execute<
    { id: string; name: string; tier: string; disabled_at: string | null; emails: string | null }[]
  >(
    `select a.id, a.name, a.tier, a.disabled_at,
       string_agg(u.email, ' ' order by u.email) as emails
     from account a left join app_user u on u.account_id = a.id
     group by a.id order by a.created_at, a.id`,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    tier: row.tier,
    emails: row.emails ? row.emails.split(' ') : [],
    disabledAt: row.disabled_at ? new Date(row.disabled_at) : null,
  }));
}

async function accountOf(em: EntityManager, email: string): Promise<string> {
  const [row] = await em.execute<{ account_id: string }[]>(
    'select account_id from app_user where email = ?',
    [email.trim().toLowerCase()],
  );
  if (!row) throw new AppError('not_found', `no account has a user with the email ${email}`);
  return row.account_id;
}

export async function setPlan(em: EntityManager, email: string, plan: string, now = new Date()) {
  if (!(billingTiers as readonly string[]).includes(plan)) {
    throw new AppError('invalid_request', `plan must be one of: ${billingTiers.join(', ')}`);
  }
  const accountId = await accountOf(em, email);
  await setPlanByOperator(em, accountId, plan, now);
  return accountId;
}

/**
 * Disables the account of `email`: sign-in refused and console sessions ended, every claimed or
 * pending agent revoked (with its tokens and derived keys), every other API key deleted.
 */
export async function disableAccount(em: EntityManager, email: string, now = new Date()) {
  const accountId = await accountOf(em, email);
  await em.execute('update account set disabled_at = ?, updated_at = ? where id = ?', [
    now,
    now,
    accountId,
  ]);
  const agents = await em.execute<{ id: string }[]>(
    "select id from agent_registration where account_id = ? and status in ('pending', 'claimed')",
    [accountId],
  );
  let keys = 0;
  for (const agent of agents) {
    // Revoking an agent deletes the keys derived from it; they count among the keys deleted.
    const revoked = await revokeRegistration({ em, clock: () => now }, agent.id, accountId);
    keys += (revoked?.length ?? 1) - 1;
  }
  const rest = await em.execute<{ id: string }[]>(
    'delete from api_key where account_id = ? returning id',
    [accountId],
  );
  keys += rest.length;
  await em.execute(
    'delete from console_session where user_id in (select id from app_user where account_id = ?)',
    [accountId],
  );
  return { accountId, agents: agents.length, keys };
}

const usage =
  'usage: npm run admin -- list | set-plan <email> <free|per_session|enterprise> | disable <email>';

export async function runAdmin(
  args: string[],
  env: Record<string, string | undefined>,
  out: (line: string) => void,
): Promise<void> {
  const [command, ...rest] = args;
  const known: Record<string, number> = { list: 0, 'set-plan': 2, disable: 1 };
  if (!command || !(command in known) || rest.length !== known[command]) {
    throw new AppError('invalid_request', usage);
  }
  const config = loadConfig(env);
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    sealingKeys: config.secretsKey,
    log: () => {},
  });
  try {
    const em = db.orm.em.fork() as EntityManager;
    if (command === 'list') {
      for (const account of await listAccounts(em)) {
        out(
          [
            account.id,
            account.tier,
            account.disabledAt ? `disabled ${account.disabledAt.toISOString()}` : 'active',
            account.emails.join(',') || '-',
          ].join('\t'),
        );
      }
    } else if (command === 'set-plan') {
      const accountId = await setPlan(em, rest[0]!, rest[1]!);
      out(`${accountId}: plan set to ${rest[1]}`);
    } else {
      const result = await disableAccount(em, rest[0]!);
      out(
        `${result.accountId}: disabled; ${result.agents} agents revoked, ${result.keys} API keys deleted`,
      );
    }
  } finally {
    await db.close();
  }
}

if (import.meta.main) {
  try {
    await runAdmin(process.argv.slice(2), process.env, (line) => console.log(line));
  } catch (error) {
    console.error(`admin: ${(error as Error).message}`);
    process.exit(error instanceof ConfigError ? 78 : error instanceof AppError ? 64 : 1);
  }
}
