/**
 * Secrets the service makes for itself, agreed by every instance through the database: the first
 * instance to start inserts a fresh value, any racing instance's insert is ignored, and all read
 * back the same row.
 */
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

export async function serverSecret(
  em: EntityManager,
  name: string,
  generate: () => string = () => randomBytes(32).toString('base64url'),
): Promise<string> {
  await em.execute(
    'insert into server_secret (name, value, created_at) values (?, ?, now()) on conflict (name) do nothing',
    [name, generate()],
  );
  const [row] = await em.execute<{ value: string }[]>(
    'select value from server_secret where name = ?',
    [name],
  );
  return row!.value;
}
