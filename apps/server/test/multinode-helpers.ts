/**
 * Multi-node test support: a real redis-server on a free loopback port, and server nodes run as
 * separate processes (`node dist/server.js`, as in production) sharing it through REDIS_URL.
 */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
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

export interface NodeProcess extends ServerProcess {
  /** SIGKILL: the node dies at once, as in a crash. */
  kill(): Promise<void>;
}

/** Runs `node dist/server.js` on a free loopback port with REDIS_URL set; resolves once it listens. */
export async function startNode(redisUrl: string, env: Record<string, string> = {}): Promise<NodeProcess> {
  const dataDir = tempDir('bagh-node-');
  const started = await startServerProcess({
    REDIS_URL: redisUrl,
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
 * A redis-server for the whole test file (started before its first test, stopped after the last),
 * and a way to start nodes on it with `env` (plus `extra`), each stopped after its test by `fixture`.
 */
export function redisNodes(
  fixture: PerTest,
  env: Record<string, string> = {},
): (extra?: Record<string, string>) => Promise<NodeProcess> {
  let redis: RedisProcess | undefined;
  beforeAll(async () => {
    redis = await startRedis();
  }, 15_000);
  afterAll(async () => {
    await redis?.stop();
  });
  return async (extra = {}) => {
    if (!redis) throw new Error('redis-server has not started');
    const started = await startNode(redis.url, { ...env, ...extra });
    fixture.defer(() => started.stop());
    return started;
  };
}
