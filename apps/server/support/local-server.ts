/**
 * A Bagh server as its own process (`node dist/server.js`, as in production), for the tests and
 * benches that stop it with real signals: several nodes, restarts, rolling deploys.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopProcess } from './local-redis.js';

/** The server package's folder: this file runs from support/ (tests) and dist-bench/support/ (benches). */
function packageDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) throw new Error(`no package.json above ${import.meta.url}`);
    dir = dirname(dir);
  }
  return dir;
}

/** The built entry point. */
const SERVER_JS = join(packageDir(), 'dist', 'server.js');

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process printed (pino JSON lines), for failure messages. */
  readonly output: () => string;
  /** SIGTERM (a graceful stop, as a deploy does) or SIGKILL (a crash); resolves once it exited. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

/**
 * Runs the built server with `env` on top of this process's environment (by default HOST
 * 127.0.0.1, PORT 0 and LOG_LEVEL info, whose "listening" line tells the address); resolves once
 * it listens.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  if (!existsSync(SERVER_JS)) {
    throw new Error(`${SERVER_JS} is missing: run 'pnpm build' first`);
  }
  const child = spawn(process.execPath, [SERVER_JS], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 15 s:\n${output}`)), 15_000);
    let pending = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const address = listeningAddress(line);
        if (address) {
          clearTimeout(timer);
          resolve(address);
        }
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  return { url, child, output: () => output, stop: (signal = 'SIGTERM') => stopProcess(child, signal) };
}

/** The address of the server's "listening" log line, if `line` is that line. */
function listeningAddress(line: string): string | undefined {
  try {
    const entry = JSON.parse(line) as { msg?: string; address?: string };
    return entry.msg === 'listening' ? entry.address : undefined;
  } catch {
    return undefined; // not a log line
  }
}
