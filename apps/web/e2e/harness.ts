/**
 * Shared by the browser tests: the built server on a free port, serving the built client, and
 * Chromium; and the steps the tests share (opening a page, creating a room, clicking a move).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImportRecordReply } from '@bagh/protocol';
import { type Game, gameFromMoves, makeRecord } from '@bagh/rules';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER = join(ROOT, 'apps/server/dist/server.js');
const WEB_DIST = join(ROOT, 'apps/web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the tests leave screenshots. */
export const ARTIFACTS = join(ROOT, 'artifacts');

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
  /** The server's DATA_DIR (its SQLite database). */
  readonly dataDir: string;
  readonly browser: Browser;
  /** Everything every server process of this harness wrote. */
  readonly log: () => string;
  /**
   * Stops the server process with `signal` (SIGTERM: a graceful stop; SIGKILL: a crash); resolves
   * with its exit code (null when a signal ended it).
   */
  stopServer(signal: 'SIGTERM' | 'SIGKILL'): Promise<number | null>;
  /** Starts the server again on the same port and data directory; resolves once it is healthy. */
  startServer(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server (extra environment in `env`) and Chromium. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  requireBuiltParts();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bagh-e2e-'));
  const base = `http://127.0.0.1:${port}`;
  let log = '';
  let server: ChildProcess | null = null;

  const startServer = async (): Promise<void> => {
    const started = spawn(process.execPath, [SERVER], {
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
    server = started;
    started.stdout?.on('data', (d) => (log += d));
    started.stderr?.on('data', (d) => (log += d));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`server exited (${started.exitCode}):\n${log}`);
      if (Date.now() > deadline) throw new Error(`server did not become healthy:\n${log}`);
      const healthy = await fetch(`${base}/healthz`).then(
        (res) => res.ok,
        () => false,
      );
      if (healthy) break;
      await new Promise((r) => setTimeout(r, 150));
    }
  };

  /** Sends `signal` and waits for the exit; a server still there after 10 s is killed. */
  const stopServer = async (signal: 'SIGTERM' | 'SIGKILL'): Promise<number | null> => {
    const running = server;
    server = null;
    if (!running) return null;
    if (running.exitCode !== null || running.signalCode !== null) return running.exitCode;
    const exited = new Promise((r) => running.once('exit', r));
    running.kill(signal);
    // The server's own limit is 20 s; a loaded machine may need most of it.
    await Promise.race([exited, new Promise((r) => setTimeout(r, 25_000))]);
    if (running.exitCode === null && running.signalCode === null) {
      running.kill('SIGKILL');
      await exited;
    }
    return running.exitCode;
  };

  await startServer();
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
    dataDir,
    browser,
    log: () => log,
    stopServer,
    startServer,
    async close() {
      await browser.close();
      await stopServer('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * For a describe block: starts the harness before its tests (60 s allowed) and closes it after;
 * the returned function gives the running harness.
 */
export function useHarness(env: Record<string, string> = {}): () => Harness {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness(env);
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });
  return () => {
    if (!harness) throw new Error('the harness did not start');
    return harness;
  };
}

export interface Pages {
  /** Opens a page in a fresh browser context (its own storage: one player or watcher each). */
  open(name: string, viewport?: { width: number; height: number }): Promise<Page>;
  /** Every uncaught page error so far, as `name: message`. */
  readonly errors: string[];
}

/** Pages in fresh contexts of `browser`, their uncaught errors collected. */
export function pageOpener(browser: Browser): Pages {
  const errors: string[] = [];
  return {
    errors,
    async open(name, viewport = { width: 1100, height: 900 }) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
      return page;
    },
  };
}

/**
 * Creates a Bagh Chal room through the home page, seated on `side`, and waits until the room
 * shows that seat as the player's own; resolves with the room's link, for the other pages.
 */
export async function createRoom(
  page: Page,
  base: string,
  side: 'goat' | 'tiger',
  { public: listed = false }: { public?: boolean } = {},
): Promise<string> {
  await page.goto(`${base}/`);
  await page.getByText('Bagh Chal', { exact: true }).click();
  await page.locator('label.side', { hasText: side === 'goat' ? 'Goats' : 'Tigers' }).click();
  if (listed) await page.locator('input[name="public"]').check();
  await page.getByRole('button', { name: 'Create room' }).click();
  await page.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
  await page.locator(`[data-seat="${side}"] .you`).waitFor();
  return page.getByLabel('Room link').inputValue();
}

/** Imports `game` (or Bagh Chal after `moves`) as a record (`POST /api/records`): its room's id. */
export async function importGame(base: string, game: Game | readonly string[]): Promise<string> {
  const played =
    'variant' in game
      ? { ok: true as const, value: game }
      : gameFromMoves({ variant: 'bagh-chal', moves: game });
  if (!played.ok) throw new Error(played.error.message);
  const response = await fetch(`${base}/api/records`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ record: makeRecord(played.value) }),
  });
  if (!response.ok) throw new Error(`import: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as ImportRecordReply).roomId;
}

/** Opens the room at `url` and takes the free `side` seat with its one button. */
export async function takeSeat(page: Page, url: string, side: 'goat' | 'tiger'): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: side === 'goat' ? 'Play Goats' : 'Play Tigers' }).click();
  await page.locator(`[data-seat="${side}"] .you`).waitFor();
}

/**
 * A Bagh Chal room with both seats taken: the goat's page created it, the tiger's took the free
 * seat from its link (each page in its own context, of `viewport` when given).
 */
export async function seatedPair(
  { open }: Pages,
  base: string,
  viewport?: { width: number; height: number },
): Promise<{ goat: Page; tiger: Page; link: string }> {
  const goat = await open('goat', viewport);
  const link = await createRoom(goat, base, 'goat');
  const tiger = await open('tiger', viewport);
  await takeSeat(tiger, link, 'tiger');
  return { goat, tiger, link };
}

/** Plays a move (RULES.md move text, single jumps only) by clicking its points on the board. */
export async function clickMove(page: Page, text: string): Promise<void> {
  const points = text.startsWith('G@') ? [text.slice(2)] : text.split(/[-x]/);
  for (const point of points) await page.click(`[data-point="${point}"]`);
}

/** The move list's entry for ply `ply` (1-based), once it is shown. */
export async function shownMove(page: Page, ply: number, timeout?: number): Promise<Locator> {
  const entry = page.locator(`.moves [data-ply="${ply}"]`);
  await entry.waitFor({ timeout });
  return entry;
}
