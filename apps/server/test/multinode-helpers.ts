/**
 * Multi-node test support: a real PostgreSQL (the rooms) and a real redis-server (broadcasts,
 * presence, budgets) on free loopback ports, and server nodes run as separate processes
 * (`node dist/server.js`, as in production) sharing them through DATABASE_URL and REDIS_URL.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type LocalPostgres, startLocalPostgres } from '../support/local-postgres.js';
import {
  assertRedisInstalled,
  freePort,
  type LocalRedis,
  startLocalRedis,
  stopProcess,
} from '../support/local-redis.js';
import { type ServerProcess, startServerProcess } from '../support/local-server.js';
import { type PerTest, removeDir, tempDir } from './helpers.js';

export { assertRedisInstalled, freePort, stopProcess };
export type RedisProcess = LocalRedis;
export const startRedis = startLocalRedis;
export const startPostgres = startLocalPostgres;

/** What the nodes of one cluster share. */
export interface Shared {
  readonly redis: RedisProcess;
  readonly postgres: LocalPostgres;
}

/** A redis-server and a PostgreSQL, started side by side. */
export async function startShared(): Promise<Shared> {
  const [redis, postgres] = await Promise.allSettled([startRedis(), startPostgres()]);
  if (redis.status === 'fulfilled' && postgres.status === 'fulfilled') {
    return { redis: redis.value, postgres: postgres.value };
  }
  for (const started of [redis, postgres]) if (started.status === 'fulfilled') await started.value.stop();
  throw redis.status === 'rejected' ? redis.reason : (postgres as PromiseRejectedResult).reason;
}

export const stopShared = async (shared: Shared | undefined): Promise<void> => {
  await Promise.all([shared?.redis.stop(), shared?.postgres.stop()]);
};

/**
 * A redis-server and a PostgreSQL for the whole test file (started before its first test, stopped
 * after the last): the getter returns them inside a test.
 */
export function useShared(): () => Shared {
  let shared: Shared | undefined;
  beforeAll(async () => {
    shared = await startShared();
  }, 30_000);
  afterAll(() => stopShared(shared));
  return () => {
    if (!shared) throw new Error('postgres and redis-server have not started');
    return shared;
  };
}

export interface NodeProcess extends ServerProcess {
  /** SIGKILL: the node dies at once, as in a crash. */
  kill(): Promise<void>;
}

/** Runs `node dist/server.js` on a free loopback port on `shared`; resolves once it listens. */
export async function startNode(shared: Shared, env: Record<string, string> = {}): Promise<NodeProcess> {
  const dataDir = tempDir('bagh-node-');
  const started = await startServerProcess({
    DATABASE_URL: shared.postgres.url,
    REDIS_URL: shared.redis.url,
    DATA_DIR: dataDir,
    WEB_DIST: join(dataDir, 'no-web-dist'),
    ...env,
  });
  const stop = async (signal?: 'SIGTERM' | 'SIGKILL') => {
    await started.stop(signal);
    removeDir(dataDir);
  };
  return { ...started, stop, kill: () => stop('SIGKILL') };
}

/**
 * A PostgreSQL and a redis-server for the whole test file (started before its first test,
 * stopped after the last), and a way to start nodes on them with `env` (plus `extra`), each
 * stopped after its test by `fixture`.
 */
export function clusterNodes(
  fixture: PerTest,
  env: Record<string, string> = {},
): (extra?: Record<string, string>) => Promise<NodeProcess> {
  const shared = useShared();
  return async (extra = {}) => {
    const started = await startNode(shared(), { ...env, ...extra });
    fixture.defer(() => started.stop());
    return started;
  };
}

/** A PostgreSQL for one test file: started before its tests, with a connection to administer it. */
export interface FilePostgres {
  readonly postgres: LocalPostgres;
  readonly admin: pg.Client;
  /** A new, empty database on it: its URL. */
  freshDatabase(): Promise<string>;
}

/** Starts a PostgreSQL before the file's tests and stops it after them (call at the top of a file). */
export function postgresForFile(): () => FilePostgres {
  let started: FilePostgres | undefined;
  let databases = 0;
  beforeAll(async () => {
    const postgres = await startLocalPostgres();
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    started = {
      postgres,
      admin,
      async freshDatabase() {
        const name = `fresh${++databases}`;
        await admin.query(`CREATE DATABASE ${name}`);
        const url = new URL(postgres.url);
        url.pathname = `/${name}`;
        return url.toString();
      },
    };
  }, 30_000);
  afterAll(async () => {
    await started?.admin.end();
    await started?.postgres.stop();
  });
  return () => {
    if (!started) throw new Error('postgres has not started');
    return started;
  };
}
