/** Shared by the browser tests: the built server on a free port, serving the built client, and Chromium. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER = join(ROOT, 'apps/server/dist/server.js');
const WEB_DIST = join(ROOT, 'apps/web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** The README's test command builds first and .ci/run installs Chromium: missing parts are a failure. */
function requireBuiltParts(): void {
  const missing = [
    [SERVER, 'run `pnpm build` (apps/server/dist/server.js)'],
    [join(WEB_DIST, 'index.html'), 'run `pnpm build` (apps/web/dist)'],
    [CHROMIUM, "install Debian's chromium package"],
  ].filter(([path]) => !existsSync(path!));
  if (missing.length > 0) throw new Error(`web e2e needs: ${missing.map(([, why]) => why).join('; ')}`);
}

export interface Harness {
  readonly base: string;
  readonly browser: Browser;
  readonly log: () => string;
  close(): Promise<void>;
}

/** Starts the server (extra environment in `env`) and Chromium. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  requireBuiltParts();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bagh-e2e-'));
  const base = `http://127.0.0.1:${port}`;
  let log = '';
  const server: ChildProcess = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => (log += d));
  server.stderr?.on('data', (d) => (log += d));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited (${server.exitCode}):\n${log}`);
    if (Date.now() > deadline) throw new Error(`server did not become healthy:\n${log}`);
    const healthy = await fetch(`${base}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    base,
    browser,
    log: () => log,
    async close() {
      await browser.close();
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (server.exitCode === null) server.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
