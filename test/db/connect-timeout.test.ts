/**
 * DATABASE_CONNECT_TIMEOUT: validated at start with an error naming it, and handed to the pool
 * (the blackhole test in test/ops/database-outage.test.ts shows the bound at work).
 */
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { ormOptions } from '../../src/db/orm.ts';

describe('DATABASE_CONNECT_TIMEOUT', () => {
  test('defaults to 5 seconds and accepts fractions', () => {
    expect(loadConfig({}).databaseConnectTimeout).toBe(5);
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT: '1.5' }).databaseConnectTimeout).toBe(1.5);
  });

  test.each(['0', '-1', 'soon', '61'])(
    '%s stops the start with an error naming the variable',
    (value) => {
      expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT: value })).toThrow(ConfigError);
      expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT: value })).toThrow(
        /^DATABASE_CONNECT_TIMEOUT: /,
      );
    },
  );

  test('bounds the wait for a PostgreSQL connection; the in-process embedded database gets 30 s', () => {
    const external = ormOptions('postgresql://db.example.test/x', false, undefined, 2);
    expect(external.driverOptions).toMatchObject({
      connectionTimeoutMillis: 2000,
      keepAlive: true,
    });
    const embedded = ormOptions('postgresql://127.0.0.1:1/x', true, undefined, 2);
    expect(embedded.driverOptions).toMatchObject({ connectionTimeoutMillis: 30_000 });
  });
});
