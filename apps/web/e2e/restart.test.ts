// @vitest-environment node
/**
 * End to end in a real Chromium: two players and a spectator mid-game while the built server
 * process is stopped — SIGTERM (a deploy), then SIGKILL (a crash) — and started again on the
 * same port and data directory. With no reload every page comes back by itself (the indicator
 * says so), the next move clicked goes through and the spectator sees it. Then a move clicked
 * while the server is down: it waits, shown on the board, and is played exactly once when the
 * server is back. And a page whose network drops says Offline, and plays the move clicked
 * meanwhile once the network is back.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import type { Snapshot } from '@bagh/protocol';
import { createGame, type Game, legalMoves, makeMove, play } from '@bagh/rules';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clickMove, pageOpener, seatedPair, shownMove, useHarness } from './harness.js';

/** A page is back when it has re-joined: "Back online" for a moment, then "Online". */
const BACK = '[data-connection="online"], [data-connection="back-online"]';
/** How long a page may take to come back once the server is healthy again. */
const BACK_WITHIN_MS = 15_000;

/** Moves without captures, the first legal one each ply: a game that goes on for a while. */
function quietLine(length: number): string[] {
  const start = createGame('bagh-chal');
  if (!start.ok) throw new Error(start.error.message);
  let game: Game = start.value;
  const texts: string[] = [];
  while (texts.length < length) {
    const moves = legalMoves(game);
    const move = moves.find((m) => m.kind !== 'jump') ?? moves[0]!;
    const next = play(game, move);
    if (!next.ok) throw new Error(next.error.message);
    texts.push(makeMove(move));
    game = next.value;
  }
  return texts;
}

describe('web e2e: pages come back by themselves after a restart or a network drop (Chromium)', () => {
  const harness = useHarness();

  it('SIGTERM, then SIGKILL, then a move clicked while the server is down', {
    timeout: 300_000,
  }, async () => {
    const { base, browser } = harness();
    const opener = pageOpener(browser);
    const { open, errors } = opener;
    const line = quietLine(8);

    const { goat, tiger, link } = await seatedPair(opener, base);
    const roomId = new URL(link).pathname.split('/').pop()!;
    const watcher = await open('watcher');
    await watcher.goto(link);
    await watcher.locator('[data-point="c3"]').waitFor();
    await goat.locator('[data-seat="tiger"] [data-presence="online"]').waitFor();
    const pages = { goat, tiger, watcher };
    const players = { goat, tiger };
    // Set in each document now: still there at the end means no page was reloaded.
    for (const page of Object.values(pages))
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    let ply = 0;
    /** The side to move clicks the next move of the line; the watcher sees it. */
    const playNext = async (): Promise<void> => {
      const mover = players[ply % 2 === 0 ? 'goat' : 'tiger'];
      await mover.locator('.status.turn').waitFor({ timeout: 10_000 });
      await clickMove(mover, line[ply]!);
      expect(await (await shownMove(watcher, ply + 1, 10_000)).textContent()).toBe(line[ply]);
      ply++;
    };
    await playNext();
    await playNext();

    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      const exitCode = await harness().stopServer(signal);
      expect(exitCode, harness().log().slice(-3000)).toBe(signal === 'SIGTERM' ? 0 : null); // a graceful stop ends well
      await expectDown(goat, 'tiger');
      await expectDown(watcher, 'goat');
      await harness().startServer();
      for (const page of Object.values(pages)) await page.locator(BACK).waitFor({ timeout: BACK_WITHIN_MS });
      await goat.locator('[data-seat="tiger"] [data-presence="online"]').waitFor();
      await playNext();
    }

    // A move clicked while the server is down waits (shown played), and is played once it is back.
    expect(await harness().stopServer('SIGTERM')).toBe(0);
    await expectDown(goat, 'tiger');
    const mover = players[ply % 2 === 0 ? 'goat' : 'tiger'];
    await clickMove(mover, line[ply]!);
    await mover.locator(`[data-waiting-move="${line[ply]}"]`).waitFor();
    expect(await mover.locator('.moves .move').count()).toBe(ply); // not in the record yet
    await harness().startServer();
    expect(await (await shownMove(watcher, ply + 1, BACK_WITHIN_MS + 10_000)).textContent()).toBe(line[ply]);
    await mover.locator('[data-waiting-move]').waitFor({ state: 'detached' });
    ply++;
    const stored = (await (await fetch(`${base}/api/rooms/${roomId}`)).json()) as Snapshot;
    expect(stored.moves).toEqual(line.slice(0, ply)); // played once, nothing else
    for (const page of Object.values(pages)) {
      await page.locator(BACK).waitFor({ timeout: BACK_WITHIN_MS });
      expect(await page.locator('.moves .move').count()).toBe(ply);
      expect(await page.locator('[data-error]').count()).toBe(0);
    }
    await playNext(); // and the game goes on

    for (const page of Object.values(pages)) {
      expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    }
    expect(errors).toEqual([]);
  });

  it('says Offline while the network is gone, and plays the move clicked meanwhile once it is back', {
    timeout: 180_000,
  }, async () => {
    const { base, browser } = harness();
    const pages = pageOpener(browser);
    const { errors } = pages;
    const { goat, tiger } = await seatedPair(pages, base);
    await goat.locator('[data-seat="tiger"] [data-presence="online"]').waitFor();
    await goat.locator('.status.turn').waitFor();

    await goat.context().setOffline(true);
    await goat.locator('[data-connection="offline"]').waitFor();
    await goat.locator('[data-seat="tiger"] [data-presence="unknown"]').waitFor();
    await clickMove(goat, 'G@c3');
    await goat.locator('[data-waiting-move="G@c3"]').waitFor();
    await goat.context().setOffline(false);
    expect(await (await shownMove(tiger, 1, BACK_WITHIN_MS)).textContent()).toBe('G@c3');
    await goat.locator(BACK).waitFor({ timeout: BACK_WITHIN_MS });
    await goat.locator('[data-waiting-move]').waitFor({ state: 'detached' });
    expect(await goat.locator('.moves .move').allTextContents()).toEqual(['G@c3']);
    await tiger.locator('.status.turn').waitFor();
    await clickMove(tiger, 'a1-b1');
    await shownMove(goat, 2, 10_000);
    expect(errors).toEqual([]);
  });
});

/** The page knows the server is gone: it says it is reconnecting and no longer claims presence. */
async function expectDown(page: Page, otherSeat: 'goat' | 'tiger'): Promise<void> {
  await page.locator('[data-connection="reconnecting"]').waitFor({ timeout: 30_000 });
  await page.locator(`[data-seat="${otherSeat}"] [data-presence="unknown"]`).waitFor();
}
