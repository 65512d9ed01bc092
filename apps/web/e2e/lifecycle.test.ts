// @vitest-environment node
/**
 * End to end in a real Chromium (issue 5): a timed, public game is created, shows ticking clocks
 * and is listed on /live; the players chat, the goat resigns (with its confirm step), the
 * finished game can be stepped through with the arrow keys, then the tiger offers a rematch, the
 * goat accepts, and both players (and the spectator) land in the new room with the sides swapped.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clickMove, createRoom, pageOpener, shownMove, takeSeat, useHarness } from './harness.js';

describe('web e2e: clocks, chat, resign, replay, rematch (Chromium)', () => {
  const harness = useHarness();

  it('plays to a result, rematches, and the sides are swapped', { timeout: 120_000 }, async () => {
    const pages = pageOpener(harness().browser);
    const open = (name: string) => pages.open(name, { width: 1100, height: 1000 });

    // The goat player creates a public Bagh Chal room with the default 5+3 clock.
    const goat = await open('goat');
    await createRoom(goat, harness().base, 'goat', { public: true });
    const firstRoom = goat.url();
    expect(await goat.locator('[data-clock="goat"] .time').textContent()).toBe('5:00');

    const tiger = await open('tiger');
    await takeSeat(tiger, firstRoom, 'tiger');

    // The room is listed on the live page.
    const watcher = await open('watcher');
    await watcher.goto(`${harness().base}/live`);
    const roomId = firstRoom.split('/r/')[1]!;
    await watcher.locator(`[data-live-room="${roomId}"]`).waitFor();
    await watcher.locator(`[data-live-room="${roomId}"] a`).click();
    await watcher.waitForURL(firstRoom);
    await watcher.locator('[data-point="c3"]').waitFor();

    // Two moves by clicking; the tiger's clock runs after the goat's first move.
    await goat.locator('.status.turn').waitFor();
    await clickMove(goat, 'G@c3');
    await tiger.locator('.status.turn').waitFor();
    await expect.poll(() => tiger.locator('[data-clock="tiger"].running').count()).toBe(1);
    const before = await tiger.locator('[data-clock="tiger"] .time').textContent();
    await tiger.waitForTimeout(1200);
    expect(await tiger.locator('[data-clock="tiger"] .time').textContent()).not.toBe(before);
    await clickMove(tiger, 'a1-b1');
    await shownMove(watcher, 2);

    // Chat on the players' channel reaches the spectator too.
    await goat.getByLabel('Chat message').fill('good game');
    await goat.getByLabel('Chat message').press('Enter');
    await watcher.getByText('good game').waitFor();

    // The goat resigns, with a confirm step.
    await goat.getByRole('button', { name: 'Resign' }).click();
    await goat.getByRole('button', { name: 'Yes, resign' }).click();
    for (const page of [goat, tiger, watcher]) {
      await expect.poll(() => page.locator('[data-status]').textContent()).toBe('Tigers win — resignation');
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
    await clickMove(tiger, 'G@c3');
    await shownMove(watcher, 1);
    expect(pages.errors).toEqual([]);
  });
});
