/**
 * A throw-away redis-server on a free loopback port, without persistence: for the multi-node
 * tests and `pnpm bench:load`, which start their own (Debian's redis-server package).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'redis';

const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

export interface LocalRedis {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  stop(): Promise<void>;
}

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

/** Fails with a clear message (never skips) when redis-server is not installed. */
export function assertRedisInstalled(): void {
  const probe = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `a real redis-server is needed, and '${REDIS_SERVER}' cannot be run ` +
        `(${probe.error?.message ?? `exit ${probe.status}`}). Install it: apt-get install redis-server ` +
        '(.ci/run does), or point REDIS_SERVER at the binary.',
    );
  }
}

/** SIGTERM (or `signal`), then SIGKILL after a while; resolves when the process has exited. */
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

export interface LocalRedisOptions {
  /** The port (default: a free one). */
  readonly port?: number;
  /** Keep the data here (an append-only file, fsynced on every write), to survive a restart. */
  readonly dataDir?: string;
}

/** Starts redis-server on a loopback port; resolves once it answers PING. */
export async function startLocalRedis(options: LocalRedisOptions = {}): Promise<LocalRedis> {
  assertRedisInstalled();
  const persistence = options.dataDir
    ? ['--dir', options.dataDir, '--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  for (let attempt = 0; ; attempt++) {
    const port = options.port ?? (await freePort());
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence],
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
    if (await answersWithin(child, 5000, () => pings(url))) {
      return { url, port, pid: child.pid!, stop: () => stopProcess(child) };
    }
    await stopProcess(child);
    if (attempt >= 2 || options.port !== undefined)
      throw new Error(`redis-server did not start on port ${port}:\n${output}`);
  }
}

/**
 * Polls `check` (a failure counts as no) every 50 ms until it says yes, `child` exits or
 * `timeoutMs` passes: whether the server came up.
 */
export async function answersWithin(
  child: ChildProcess,
  timeoutMs: number,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    if (await check().catch(() => false)) return true;
    await sleep(50);
  }
  return false;
}

/** Whether redis-server at `url` answers PING. */
async function pings(url: string): Promise<boolean> {
  const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 500 } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    await client.close();
    return true;
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw error;
  }
}
