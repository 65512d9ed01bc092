/**
 * Multi-node test support: a real redis-server on a free loopback port, and server nodes run as
 * separate processes (`node dist/server.js`, as in production) sharing it through REDIS_URL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import {
  assertRedisInstalled,
  freePort,
  type LocalRedis,
  startLocalRedis,
  stopProcess,
} from '../src/cluster/local-redis.js';
import { type PerTest, removeDir, tempDir } from './helpers.js';

export { assertRedisInstalled, freePort, stopProcess };
export type RedisProcess = LocalRedis;
export const startRedis = startLocalRedis;

const SERVER_JS = fileURLToPath(new URL('../dist/server.js', import.meta.url));

export interface NodeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the node printed (pino JSON lines), for failure messages. */
  readonly output: () => string;
  stop(): Promise<void>;
  /** SIGKILL: the node dies at once, as in a crash. */
  kill(): Promise<void>;
}

/** Runs `node dist/server.js` on a free loopback port with REDIS_URL set; resolves once it listens. */
export async function startNode(redisUrl: string, env: Record<string, string> = {}): Promise<NodeProcess> {
  if (!existsSync(SERVER_JS)) {
    throw new Error(`${SERVER_JS} is missing: run 'pnpm build' before the multi-node tests`);
  }
  const dataDir = tempDir('bagh-node-');
  const webDist = join(dataDir, 'no-web-dist');
  const child = spawn(process.execPath, [SERVER_JS], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: redisUrl,
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start in 10 s:\n${output}`)), 10_000);
    let pending = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as { msg?: string; address?: string };
          if (entry.msg === 'listening' && entry.address) {
            clearTimeout(timer);
            resolve(entry.address);
          }
        } catch {
          // not a log line
        }
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`node exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  const cleanup = () => removeDir(dataDir);
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      await stopProcess(child);
      cleanup();
    },
    kill: async () => {
      await stopProcess(child, 'SIGKILL');
      cleanup();
    },
  };
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
