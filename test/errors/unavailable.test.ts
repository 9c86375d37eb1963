/**
 * The "dependency down" classifier against errors real drivers throw at real sockets: a refused
 * port, a connection reset mid-handshake, a pool that cannot get a connection in time, a Redis
 * client with no connection. A database's answer about the query itself (a syntax error, a
 * constraint) is not an outage and stays unexpected.
 */
import { PGlite } from '@electric-sql/pglite';
import { GraphQLError } from 'graphql';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AppError, isDependencyUnavailable, unavailableError } from '../../src/errors/index.ts';
import { toAppError } from '../../src/http/problem.ts';
import { maskError } from '../../src/schema/errors.ts';
import { FaultProxy } from '../helpers/faults.ts';

/** The error `run` rejects with (fails the test if it resolves). */
async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

let cut: FaultProxy;
let silent: FaultProxy;
beforeAll(async () => {
  cut = await FaultProxy.start({ host: '127.0.0.1', port: 9 });
  cut.cut();
  silent = await FaultProxy.start({ host: '127.0.0.1', port: 9 });
  silent.blackhole();
});
afterAll(async () => {
  await cut.close();
  await silent.close();
});

describe('recognised as a dependency outage', () => {
  test('pg connecting to a port that resets the connection', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: cut.port, user: 'x', database: 'x' });
    client.on('error', () => {});
    expect(isDependencyUnavailable(await failureOf(() => client.connect()))).toBe(true);
  });

  test('pg-pool giving up on a server that never answers (connectionTimeoutMillis)', async () => {
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port: silent.port,
      user: 'x',
      database: 'x',
      connectionTimeoutMillis: 200,
    });
    pool.on('error', () => {});
    try {
      expect(isDependencyUnavailable(await failureOf(() => pool.query('select 1')))).toBe(true);
    } finally {
      await pool.end();
    }
  });

  test('ioredis with no connection to send on', async () => {
    const redis = new Redis({
      host: '127.0.0.1',
      port: cut.port,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    try {
      expect(isDependencyUnavailable(await failureOf(() => redis.ping()))).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  test('wrapped by GraphQL and by a cause, it still maps to service_unavailable with Retry-After', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: cut.port, user: 'x', database: 'x' });
    client.on('error', () => {});
    const driverError = await failureOf(() => client.connect());
    const wrapped = new GraphQLError('resolver failed', {
      originalError: new Error('query failed', { cause: driverError }),
    });
    expect(maskError(wrapped).extensions).toEqual({ code: 'service_unavailable', retryAfter: 5 });
    const { error, unexpected } = toAppError(new Error('outer', { cause: driverError }));
    expect(unexpected).toBe(false);
    expect(error).toMatchObject({ code: 'service_unavailable', status: 503, retryAfter: 5 });
  });
});

describe('not an outage', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
  });
  afterAll(() => db?.close());

  test('a query the database refuses (syntax error, unique violation) stays internal_error', async () => {
    const syntax = await failureOf(() => db.query('selec 1'));
    await db.exec('create table t (id int primary key); insert into t values (1)');
    const duplicate = await failureOf(() => db.query('insert into t values (1)'));
    for (const error of [syntax, duplicate]) {
      expect(isDependencyUnavailable(error)).toBe(false);
      expect(toAppError(error)).toMatchObject({
        unexpected: true,
        error: { code: 'internal_error' },
      });
    }
  });

  test('an AppError keeps its own code whatever caused it', () => {
    const refused = new AppError('forbidden', 'no', { cause: unavailableError() });
    expect(isDependencyUnavailable(refused)).toBe(false);
    expect(toAppError(refused).error.code).toBe('forbidden');
  });
});
