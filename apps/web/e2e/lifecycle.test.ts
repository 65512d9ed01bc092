// @vitest-environment node
/**
 * End to end in a real Chromium (issue 5): a timed, public game is created, shows ticking clocks
 * and is listed on /live; the players chat, the goat resigns (with its confirm step), the
 * finished game can be stepped through with the arrow keys, then the tiger offers a rematch, the
 * goat accepts, and both players (and the spectator) land in the new room with the sides swapped.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
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

describe('web e2e: clocks, chat, resign, replay, rematch (Chromium)', () => {
  let server: ChildProcess;
  let dataDir: string;
  let browser: Browser;
  let base: string;
  let serverLog = '';

  beforeAll(async () => {
    for (const path of [SERVER, join(WEB_DIST, 'index.html'), CHROMIUM]) {
      if (!existsSync(path)) throw new Error(`web e2e needs ${path}: run \`pnpm build\` / install chromium`);
    }
    const port = await freePort();
    dataDir = mkdtempSync(join(tmpdir(), 'bagh-e2e-'));
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [SERVER], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_DIST,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (d) => (serverLog += d));
    server.stderr?.on('data', (d) => (serverLog += d));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited:\n${serverLog}`);
      if (Date.now() > deadline) throw new Error(`server did not become healthy:\n${serverLog}`);
      if (
        await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 150));
    }
    browser = await chromium.launch({
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
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('plays to a result, rematches, and the sides are swapped', { timeout: 120_000 }, async () => {
    const errors: string[] = [];
    const open = async (name: string): Promise<Page> => {
      const page = await (await browser.newContext({ viewport: { width: 1100, height: 1000 } })).newPage();
      page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
      return page;
    };

    // The goat player creates a public Bagh Chal room with the default 5+3 clock.
    const goat = await open('goat');
    await goat.goto(`${base}/`);
    await goat.getByText('Bagh Chal', { exact: true }).click();
    await goat.locator('label.side', { hasText: 'Goats' }).click();
    await goat.locator('input[name="public"]').check();
    await goat.getByRole('button', { name: 'Create room' }).click();
    await goat.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
    const firstRoom = goat.url();
    await goat.locator('[data-seat="goat"] .you').waitFor();
    expect(await goat.locator('[data-clock="goat"] .time').textContent()).toBe('5:00');

    const tiger = await open('tiger');
    await tiger.goto(firstRoom);
    await tiger.getByRole('button', { name: 'Play Tigers' }).click();
    await tiger.locator('[data-seat="tiger"] .you').waitFor();

    // The room is listed on the live page.
    const watcher = await open('watcher');
    await watcher.goto(`${base}/live`);
    const roomId = firstRoom.split('/r/')[1]!;
    await watcher.locator(`[data-live-room="${roomId}"]`).waitFor({ timeout: 8000 });
    await watcher.locator(`[data-live-room="${roomId}"] a`).click();
    await watcher.waitForURL(firstRoom);
    await watcher.locator('[data-point="c3"]').waitFor();

    // Two moves by clicking; the tiger's clock runs after the goat's first move.
    await goat.locator('.status.turn').waitFor();
    await goat.click('[data-point="c3"]');
    await tiger.locator('.status.turn').waitFor();
    await expect.poll(() => tiger.locator('[data-clock="tiger"].running').count()).toBe(1);
    const before = await tiger.locator('[data-clock="tiger"] .time').textContent();
    await tiger.waitForTimeout(1200);
    expect(await tiger.locator('[data-clock="tiger"] .time').textContent()).not.toBe(before);
    await tiger.click('[data-point="a1"]');
    await tiger.click('[data-point="b1"]');
    await watcher.locator('.moves [data-ply="2"]').waitFor();

    // Chat on the players' channel reaches the spectator too.
    await goat.getByLabel('Chat message').fill('good game');
    await goat.getByLabel('Chat message').press('Enter');
    await watcher.getByText('good game').waitFor();

    // The goat resigns, with a confirm step.
    await goat.getByRole('button', { name: 'Resign' }).click();
    await goat.getByRole('button', { name: 'Yes, resign' }).click();
    for (const page of [goat, tiger, watcher]) {
      await expect
        .poll(() => page.locator('[data-status]').textContent(), { timeout: 3000 })
        .toBe('Tigers win — resignation');
    }

    // The finished game is a replay: arrow keys and buttons step through it.
    await watcher.locator('[data-replay="2"]').waitFor();
    await watcher.keyboard.press('ArrowLeft');
    await watcher.locator('[data-replay="1"]').waitFor();
    await watcher.getByRole('button', { name: 'First move' }).click();
    await watcher.locator('[data-replay="0"]').waitFor();
    await watcher.keyboard.press('ArrowRight');
    await watcher.locator('[data-replay="1"]').waitFor();

    // Rematch: the tiger offers, the goat accepts; everyone moves to the new room.
    await tiger.getByRole('button', { name: 'Offer rematch' }).click();
    await goat.getByRole('button', { name: 'Accept rematch' }).click();
    const inNewRoom = (page: Page) =>
      page.waitForURL((url) => url.pathname.startsWith('/r/') && url.href !== firstRoom);
    await Promise.all([inNewRoom(goat), inNewRoom(tiger), inNewRoom(watcher)]);
    expect(goat.url()).toBe(tiger.url());
    expect(watcher.url()).toBe(goat.url());
    // Sides swapped: the former goat player now holds the tigers, and the other way round.
    await goat.locator('[data-seat="tiger"] .you').waitFor();
    await tiger.locator('[data-seat="goat"] .you').waitFor();
    expect(await watcher.getByRole('button', { name: /^Play / }).count()).toBe(0);
    // The new game goes on: the new goat player (formerly the tigers) moves first.
    await tiger.locator('.status.turn').waitFor();
    await tiger.click('[data-point="c3"]');
    await watcher.locator('.moves [data-ply="1"]').waitFor();
    expect(errors).toEqual([]);
  });
});
