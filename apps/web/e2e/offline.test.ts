// @vitest-environment node
/**
 * End to end in Chromium: the computer, offline. From the home page's link, a player starts a
 * Bagh Chal game as the goats against the beginner, then the browser goes offline: every move is
 * judged in the page and every reply comes from the engine in the page's Web Worker. A move is
 * taken back; after a reload the same game is there and goes on; a corrupt saved game is
 * ignored. The page never opens a socket nor calls the API (the server only serves the files).
 * Screenshots of the finished game and of the new-game form go to <repo>/artifacts/.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, pageOpener, shownMove, useHarness } from './harness.js';

const SAVED_GAME_KEY = 'bagh:offline-game';

/** The moves in the move list, in order. */
const listedMoves = (page: Page): Promise<string[]> => page.locator('.moves .move').allTextContents();

/** Places a goat on a free point by clicking it, and waits for the computer's answer. */
async function placeAndAwaitReply(page: Page, ply: number): Promise<void> {
  await page.locator('.status.turn').waitFor();
  const free = page.locator('[data-point][aria-label*="place a goat here"]').first();
  const point = await free.getAttribute('data-point');
  await free.click();
  expect(await (await shownMove(page, ply)).textContent()).toBe(`G@${point}`);
  // The computer's answer, from the engine in the page's worker.
  expect(await (await shownMove(page, ply + 1)).textContent()).toMatch(/^[a-e][1-5][-x][a-e][1-5]/);
}

describe('web e2e: play the computer offline (Chromium)', () => {
  const harness = useHarness();

  it('plays the beginner in the page, offline, and resumes the game after a reload', {
    timeout: 90_000,
  }, async () => {
    const { open, errors } = pageOpener(harness().browser);
    const page = await open('offline');
    const serverCalls: string[] = [];
    page.on('websocket', (socket) => serverCalls.push(`websocket ${socket.url()}`));
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/socket.io') || pathname.startsWith('/api/'))
        serverCalls.push(`${request.method()} ${pathname}`);
    });

    await page.goto(`${harness().base}/`);
    await page.getByRole('link', { name: 'Play the computer offline' }).click();
    await page.waitForURL(/\/computer$/);
    await page.getByText('Bagh Chal', { exact: true }).click();
    await page.locator('label.side', { hasText: 'Goats' }).click();
    await page.locator('select[name="level"]').selectOption('beginner');
    await page.getByRole('button', { name: 'Start the game' }).click();
    expect(await page.locator('[data-opponent="bot"]').textContent()).toBe('Opponent: Computer · beginner');

    // Once the engine's worker has loaded, the network goes away.
    await expect
      .poll(async () => {
        const worker = page.workers()[0];
        return worker ? await worker.evaluate(() => typeof self.onmessage).catch(() => 'loading') : 'none';
      })
      .toBe('function');
    await page.context().setOffline(true);

    await placeAndAwaitReply(page, 1);
    await placeAndAwaitReply(page, 3);
    await placeAndAwaitReply(page, 5);

    // Undo takes back the last goat and the computer's reply to it.
    const played = await listedMoves(page);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => listedMoves(page)).toEqual(played.slice(0, 4));
    await placeAndAwaitReply(page, 5);
    const beforeReload = await listedMoves(page);
    expect(beforeReload).toHaveLength(6);
    expect(await page.evaluate((key) => localStorage.getItem(key), SAVED_GAME_KEY)).toContain(
      `3. ${beforeReload[4]} ${beforeReload[5]} *`,
    );

    // A reload (the files need the server again) resumes the same game, which goes on.
    await page.context().setOffline(false);
    await page.reload();
    await shownMove(page, 6);
    expect(await listedMoves(page)).toEqual(beforeReload);
    expect(await page.locator('[data-status]').textContent()).toBe('Your turn — goats to move');
    await placeAndAwaitReply(page, 7);
    await placeAndAwaitReply(page, 9);
    expect((await listedMoves(page)).slice(0, 6)).toEqual(beforeReload);

    // Resigning ends it; the finished game can be analysed in the page.
    await page.getByRole('button', { name: 'Resign' }).click();
    await page.getByRole('button', { name: 'Yes, resign' }).click();
    await expect.poll(() => page.locator('[data-status]').textContent()).toBe('Tigers win — resignation');
    await page.getByRole('button', { name: 'Analyse' }).click();
    await page.locator('[data-analysis="ready"]').waitFor({ timeout: 10_000 });
    expect(await page.locator('[data-best]').getAttribute('data-best')).toMatch(
      /^G@[a-e][1-5]$|^[a-e][1-5][-x][a-e][1-5]/,
    );

    await page.locator('svg.board [data-hint]').waitFor();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'web-e2e-offline-finished.png'), fullPage: true });

    // A corrupt saved game is ignored: the page offers a new game.
    await page.evaluate(
      (key) => localStorage.setItem(key, '[Variant "bagh-chal"]\n\n1. G@c3 G@c3 *'),
      SAVED_GAME_KEY,
    );
    await page.reload();
    await page.locator('[data-offline-setup]').waitFor();
    expect(await page.getByRole('button', { name: 'Back to the game' }).count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'web-e2e-offline-new-game.png'), fullPage: true });

    expect(serverCalls).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
