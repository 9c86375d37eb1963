/**
 * Secrets the service makes for itself (the cookie signing secret, the user-code pepper), agreed
 * by every instance through the database: the first instance to start inserts a fresh value, any
 * racing instance's insert is ignored, and all read back the same row.
 *
 * Values are sealed (`server_secret:<name>` bound in), so the database alone does not give them
 * away; every instance must therefore hold the same sealing keys.
 */
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sealer } from './sealer.ts';

/** The associated data a server secret is sealed with (also used by sealed-columns.ts). */
export const serverSecretOwner = (name: string) => `server_secret:${name}`;

export async function serverSecret(
  em: EntityManager,
  sealer: Sealer,
  name: string,
  generate: () => string = () => randomBytes(32).toString('base64url'),
): Promise<string> {
  await em.execute(
    'insert into server_secret (name, value, created_at) values (?, ?, now()) on conflict (name) do nothing',
    [name, sealer.sealText(generate(), serverSecretOwner(name))],
  );
  const [row] = await em.execute<{ value: string }[]>(
    'select value from server_secret where name = ?',
    [name],
  );
  return sealer.openText(row!.value, serverSecretOwner(name));
}
