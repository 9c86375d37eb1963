/**
 * DATABASE_POOL_MAX (issue 16): the PostgreSQL connections one instance may hold. Validated at
 * start with an error naming it, twice the cores plus one (at most 10) by default, handed to the
 * pool (pool-size.pg.test.ts shows PostgreSQL never sees more). The embedded database always has
 * exactly one.
 */
import { describe, expect, test } from 'vitest';
import { ConfigError, defaultPoolMax, loadConfig } from '../../src/config.ts';
import { ormOptions } from '../../src/db/orm.ts';

describe('DATABASE_POOL_MAX', () => {
  test('defaults to twice the cores plus one, at most 10', () => {
    expect(defaultPoolMax(1)).toBe(3);
    expect(defaultPoolMax(2)).toBe(5);
    expect(defaultPoolMax(4)).toBe(9);
    expect(defaultPoolMax(64)).toBe(10);
    expect(loadConfig({}).databasePoolMax).toBe(defaultPoolMax());
    expect(loadConfig({ DATABASE_POOL_MAX: '3' }).databasePoolMax).toBe(3);
  });

  test.each(['0', '-2', '2.5', 'many', '201'])(
    '%s stops the start with an error naming the variable',
    (value) => {
      expect(() => loadConfig({ DATABASE_POOL_MAX: value })).toThrow(ConfigError);
      expect(() => loadConfig({ DATABASE_POOL_MAX: value })).toThrow(/^DATABASE_POOL_MAX: /);
    },
  );

  test('sizes the PostgreSQL pool; the embedded database keeps its one connection', () => {
    const external = ormOptions('postgresql://db.example.test/x', false, undefined, 5, 1000, 3);
    expect(external.pool).toMatchObject({ min: 0, max: 3 });
    const embedded = ormOptions('postgresql://127.0.0.1:1/x', true, undefined, 5, 1000, 3);
    expect(embedded.pool).toMatchObject({ max: 1 });
  });
});
