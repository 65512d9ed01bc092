// @vitest-environment node
/**
 * End to end in Chromium: a player creates a room against the computer (beginner) through the
 * UI, plays a few goat moves by clicking, sees each answer of the bot, resigns, and analyses the
 * finished game (the engine in a real Web Worker), its best move drawn on the board.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { describe, expect, it } from 'vitest';
import { pageOpener, shownMove, useHarness } from './harness.js';

describe('web e2e: play the computer, then analyse (Chromium)', () => {
  const harness = useHarness();

  it('plays a few moves against the beginner bot and analyses the game', { timeout: 60_000 }, async () => {
    const { open, errors } = pageOpener(harness().browser);
    const page = await open('goat');

    await page.goto(`${harness().base}/`);
    await page.getByText('Bagh Chal', { exact: true }).click();
    await page.locator('label.side', { hasText: 'The computer' }).click();
    await page.locator('select[name="level"]').selectOption('beginner');
    await page.locator('label.side', { hasText: 'Goats' }).click();
    await page.getByRole('button', { name: 'Play the computer' }).click();
    await page.waitForURL(/\/r\/[A-Za-z0-9_-]+$/);
    await page.locator('[data-seat="goat"] .you').waitFor();
    expect(await page.locator('[data-seat="tiger"] [data-bot]').textContent()).toBe('Computer · beginner');
    expect(await page.locator('[data-opponent="bot"]').count()).toBe(1);

    for (let turn = 0; turn < 3; turn++) {
      await page.locator('.status.turn').waitFor();
      const free = page.locator('[data-point][aria-label*="place a goat here"]').first();
      const point = await free.getAttribute('data-point');
      await free.click();
      const mine = await shownMove(page, 2 * turn + 1);
      expect(await mine.textContent()).toBe(`G@${point}`);
      // The computer answers (its budget is the engine's to keep, tested there with a clock).
      const reply = await shownMove(page, 2 * turn + 2);
      expect(await reply.textContent()).toMatch(/^[a-e][1-5][-x][a-e][1-5]/);
    }

    await page.getByRole('button', { name: 'Resign' }).click();
    await page.getByRole('button', { name: 'Yes, resign' }).click();
    await expect.poll(() => page.locator('[data-status]').textContent()).toBe('Tigers win — resignation');

    // Analysis of the shown position (the last), in a Web Worker; its best move on the board.
    await page.getByRole('button', { name: 'Analyse' }).click();
    await page.locator('[data-analysis="ready"]').waitFor({ timeout: 10_000 });
    const best = await page.locator('[data-best]').getAttribute('data-best');
    expect(best).toMatch(/^G@[a-e][1-5]$|^[a-e][1-5]-[a-e][1-5]$/);
    await page.locator(`svg.board [data-hint="${best}"]`).waitFor();
    // The last position of a resigned game: its result, not a score.
    expect(await page.locator('[data-verdict="over"]').textContent()).toBe('Tigers win — resignation');
    // Stepping back analyses the earlier position.
    await page.getByRole('button', { name: 'Previous move' }).click();
    await page.locator('[data-analysis="ready"] [data-best]').waitFor({ timeout: 10_000 });
    await page.locator('svg.board [data-hint]').waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
