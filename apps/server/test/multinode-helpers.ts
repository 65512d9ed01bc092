/**
 * Multi-node test support: a real redis-server on a free loopback port, and server nodes run as
 * separate processes (`node dist/server.js`, as in production) sharing it through REDIS_URL.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { removeDir, sleep, tempDir } from './helpers.js';

const SERVER_JS = fileURLToPath(new URL('../dist/server.js', import.meta.url));
const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

/** A free TCP port on 127.0.0.1 (asked of the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface RedisProcess {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Fails with a clear message (never skips) when redis-server is not installed. */
export function assertRedisInstalled(): void {
  const probe = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `the multi-node tests need a real redis-server, and '${REDIS_SERVER}' cannot be run ` +
        `(${probe.error?.message ?? `exit ${probe.status}`}). Install it: apt-get install redis-server ` +
        '(.ci/run does), or point REDIS_SERVER at the binary.',
    );
  }
}

/** Starts `redis-server` on a free loopback port, without persistence; resolves once it answers. */
export async function startRedis(): Promise<RedisProcess> {
  assertRedisInstalled();
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const url = `redis://127.0.0.1:${port}`;
    if (await answers(url, child, 5000)) {
      return { url, port, stop: () => stopProcess(child) };
    }
    await stopProcess(child);
    if (attempt >= 2) throw new Error(`redis-server did not start on port ${port}:\n${output}`);
  }
}

async function answers(url: string, child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 500 } });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      await client.close();
      return true;
    } catch {
      if (client.isOpen) client.destroy();
      await sleep(50);
    }
  }
  return false;
}

/** SIGTERM, then SIGKILL after a while; resolves when the process has exited. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

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
