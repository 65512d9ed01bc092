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
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createGame, type Game, legalMoves, type Move, makeMove, play } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, clickMove, createRoom, pageOpener, shownMove, takeSeat, useHarness } from './harness.js';

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

describe('web e2e: create, share, play, watch (Chromium)', () => {
  const harness = useHarness();

  it('plays a whole Bagh Chal game to a result through clicks', { timeout: 180_000 }, async () => {
    const line = quickTigerWin();
    const { open, errors } = pageOpener(harness().browser);

    // 1. The goat player creates the room through the UI.
    const goat = await open('goat');
    const link = await createRoom(goat, harness().base, 'goat');
    expect(link).toBe(goat.url());

    // 2. A friend opens the link and takes the free seat with one click.
    const tiger = await open('tiger', { width: 390, height: 844 });
    await takeSeat(tiger, link, 'tiger');
    await goat.locator('[data-seat="tiger"] [data-presence="online"]').waitFor();
    expect(await tiger.locator('svg.board').getAttribute('data-flipped')).toBe('true');

    // 3. Someone else watches: no seat to take, and the players see one spectator.
    const watcher = await open('watcher');
    await watcher.goto(link);
    await watcher.locator('[data-point="c3"]').waitFor();
    expect(await watcher.getByRole('button', { name: /^Play / }).count()).toBe(0);
    await goat.locator('[data-spectators="1"]').waitFor();

    // 4. An illegal attempt typed on the keyboard is told why by the rules in the page, not sent.
    await goat.locator('.status.turn').waitFor();
    await goat.fill('#move-text', 'a1-b2');
    await goat.press('#move-text', 'Enter');
    await expect
      .poll(() => goat.locator('#move-hint').textContent())
      .toBe('There is no goat of yours on a1.');
    expect(await goat.locator('[data-error]').count()).toBe(0);
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
      await page.locator('.status.turn').waitFor();
      await clickMove(page, text);
      const shown = await shownMove(watcher, i + 1);
      expect(await shown.textContent()).toBe(text);
    }

    // 6. The result, with its reason, everywhere.
    for (const page of [goat, tiger, watcher]) {
      await expect
        .poll(() => page.locator('[data-status]').textContent())
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
