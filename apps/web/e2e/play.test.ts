// @vitest-environment node
/**
 * End to end in a real Chromium: the built server (apps/server/dist/server.js) serving the built
 * client (apps/web/dist). One browser context creates a Bagh Chal room, a second takes the other
 * seat through the link, a third watches; they play a whole game to a result by clicking points,
 * the watcher sees each move within a second, and the goat player reloads mid-game and keeps
 * their seat. A screenshot of the finished game goes to <repo>/artifacts/.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGame, type Game, legalMoves, type Move, makeMove, play } from '@bagh/rules';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER = join(ROOT, 'apps/server/dist/server.js');
const WEB_DIST = join(ROOT, 'apps/web/dist');
const ARTIFACTS = join(ROOT, 'artifacts');
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

async function waitForHealth(base: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited (${server.exitCode}):\n${log()}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

/**
 * A short game the tigers win by captures (R14): goats choose a move that hands a tiger a
 * capture when they can, tigers capture whenever they can.
 */
function quickTigerWin(): string[] {
  const start = createGame('bagh-chal');
  if (!start.ok) throw new Error(start.error.message);
  let game: Game = start.value;
  const texts: string[] = [];
  const after = (g: Game, m: Move): Game => {
    const r = play(g, m);
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  while (!game.outcome && texts.length < 200) {
    const moves = legalMoves(game);
    let pick: Move;
    if (game.position.toMove === 'tiger') {
      pick = moves.find((m) => m.kind === 'jump') ?? moves[texts.length % moves.length]!;
    } else {
      const blunders = moves.filter((m) => legalMoves(after(game, m)).some((t) => t.kind === 'jump'));
      pick = blunders[(texts.length * 7) % Math.max(1, blunders.length)] ?? moves[0]!;
    }
    texts.push(makeMove(pick));
    game = after(game, pick);
  }
  expect(game.outcome).toEqual({ winner: 'tiger', reason: 'captures' });
  return texts;
}

/** The points to click for a move (RULES.md move text, single jumps only). */
function clicksFor(text: string): string[] {
  if (text.startsWith('G@')) return [text.slice(2)];
  return text.split(/[-x]/);
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

describe('web e2e: create, share, play, watch (Chromium)', () => {
  let server: ChildProcess;
  let dataDir: string;
  let browser: Browser;
  let base: string;
  let serverLog = '';

  beforeAll(async () => {
    requireBuiltParts();
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
    await waitForHealth(base, server, () => serverLog);
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

  it('plays a whole Bagh Chal game to a result through clicks', { timeout: 180_000 }, async () => {
    const line = quickTigerWin();
    const errors: string[] = [];
    const open = async (name: string, viewport = { width: 1100, height: 900 }): Promise<Page> => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
      return page;
    };

    // 1. The goat player creates the room through the UI.
    const goat = await open('goat');
    await goat.goto(base + '/');
    await goat.getByText('Bagh Chal', { exact: true }).click();
    await goat.locator('label.side', { hasText: 'Goats' }).click();
    await goat.getByRole('button', { name: 'Create room' }).click();
    await goat.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
    await goat.locator('[data-seat="goat"] .you').waitFor();
    const link = await goat.getByLabel('Room link').inputValue();
    expect(link).toBe(goat.url());

    // 2. A friend opens the link and takes the free seat with one click.
    const tiger = await open('tiger', { width: 390, height: 844 });
    await tiger.goto(link);
    await tiger.getByRole('button', { name: 'Play Tigers' }).click();
    await tiger.locator('[data-seat="tiger"] .you').waitFor();
    await goat.locator('[data-seat="tiger"] [data-presence="online"]').waitFor();
    expect(await tiger.locator('svg.board').getAttribute('data-flipped')).toBe('true');

    // 3. Someone else watches: no seat to take, and the players see one spectator.
    const watcher = await open('watcher');
    await watcher.goto(link);
    await watcher.locator('[data-point="c3"]').waitFor();
    expect(await watcher.getByRole('button', { name: /^Play / }).count()).toBe(0);
    await goat.locator('[data-spectators="1"]').waitFor();

    // 4. An illegal attempt typed on the keyboard gets a short human message, not silence.
    await goat.locator('.status.turn').waitFor();
    await goat.fill('#move-text', 'a1-b2');
    await goat.press('#move-text', 'Enter');
    const error = goat.locator('[data-error]');
    await error.waitFor({ timeout: 3000 });
    expect(await error.getAttribute('data-error')).toMatch(/ILLEGAL_MOVE|NOT_YOUR_TURN|BAD_REQUEST/);
    expect(await goat.locator('.moves .move').count()).toBe(0);

    // 5. Play the line by clicking points; the watcher sees every move within a second.
    const pages = { goat, tiger };
    const reloadAt = 6;
    for (const [i, text] of line.entries()) {
      const side = i % 2 === 0 ? 'goat' : 'tiger';
      if (i === reloadAt) {
        await goat.reload();
        await goat.locator('[data-seat="goat"] .you').waitFor({ timeout: 10_000 });
        await goat.locator(`[data-ply="${i}"]`).waitFor();
      }
      const page = pages[side];
      await page.locator('.status.turn').waitFor({ timeout: 5000 });
      for (const point of clicksFor(text)) await page.click(`[data-point="${point}"]`);
      const shown = watcher.locator(`.moves [data-ply="${i + 1}"]`);
      await shown.waitFor({ timeout: 1000 });
      expect(await shown.textContent()).toBe(text);
    }

    // 6. The result, with its reason, everywhere.
    for (const page of [goat, tiger, watcher]) {
      await expect
        .poll(() => page.locator('[data-status]').textContent(), { timeout: 3000 })
        .toBe('Tigers win — enough goats captured');
      expect(await page.locator('[data-count="captured"]').textContent()).toContain('5/5');
    }
    expect(await watcher.locator('.moves .move').allTextContents()).toEqual(line);

    mkdirSync(ARTIFACTS, { recursive: true });
    await goat.waitForTimeout(1000); // let the last capture fade out
    await goat.screenshot({ path: join(ARTIFACTS, 'web-e2e-finished-goat.png'), fullPage: true });
    await tiger.screenshot({ path: join(ARTIFACTS, 'web-e2e-finished-tiger.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});
