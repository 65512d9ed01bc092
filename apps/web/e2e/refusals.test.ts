// @vitest-environment node
/**
 * End to end in Chromium: the board explains a refusal. Against the computer, a typed illegal but
 * well-formed move and a tap the rules refuse say why, next to the board and under the move box;
 * and in a Bagh Guti game with the no-repeat rule (R13, R26) resumed from a saved record, a move
 * that would recreate an earlier position names the move after which it occurred, as the move list numbers it.
 */
import { gameFromMoves, makeRecord } from '@bagh/rules';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageOpener, shownMove, useHarness } from './harness.js';

const SAVED_GAME_KEY = 'bagh:offline-game';

async function typeMove(page: Page, text: string): Promise<string | null> {
  await page.locator('#move-text').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  return page.locator('#move-hint').textContent();
}

describe('web e2e: the board explains a refusal (Chromium)', () => {
  const harness = useHarness();

  it('says why a typed move or a tap is refused', { timeout: 90_000 }, async () => {
    const { open, errors } = pageOpener(harness().browser);
    const page = await open('refusals');
    await page.goto(`${harness().base}/computer`);
    await page.getByText('Bagh Chal', { exact: true }).click();
    await page.locator('label.side', { hasText: 'Goats' }).click();
    await page.locator('select[name="level"]').selectOption('beginner');
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.click('[data-point="c3"]');
    await shownMove(page, 2);
    await page.locator('.status.turn').waitFor();

    expect(await typeMove(page, 'c3-c4')).toBe(
      'Place a goat first: goats move only once all are placed (19 still in hand).',
    );
    expect(await typeMove(page, 'a4-c2')).toBe('There is no goat of yours on a4.');
    expect(await typeMove(page, 'hello')).toBe(
      'Not a move: type a point such as c3, or a move such as a1b2 or a1xc3.',
    );

    // A tap on a tiger while goats are placed.
    const tiger = await page
      .locator('[data-point][aria-label*=": tiger"]')
      .first()
      .getAttribute('data-point');
    await page.click(`[data-point="${tiger}"]`);
    expect(await page.locator('[data-refusal]').textContent()).toBe(`${tiger} is not empty.`);
    // A tap the board takes clears the note.
    await page.click('[data-point][aria-label*="place a goat here"]');
    await shownMove(page, 3);
    expect(await page.locator('[data-refusal]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('R13: names the earlier position a move would repeat', { timeout: 90_000 }, async () => {
    const { open, errors } = pageOpener(harness().browser);
    const page = await open('repeat');
    // Bagh Guti with noRepeat: a2-a1 now would recreate the position after 1. c5-b5 b2-a1.
    const game = gameFromMoves({
      variant: 'bagh-guti',
      options: { noRepeat: true },
      moves: ['c5-b5', 'b2-a1', 'b5-c5', 'a1-a2', 'c5-b5'],
    });
    if (!game.ok) throw new Error(game.error.message);
    const record = makeRecord(game.value, { headers: { Player: 'goat', Computer: 'beginner' } });
    await page.goto(`${harness().base}/computer`);
    await page.evaluate(([key, text]) => localStorage.setItem(key!, text!), [SAVED_GAME_KEY, record]);
    await page.reload();
    await page.locator('.status.turn').waitFor();

    // Named as the move list shows it (row 1, the goats' b2-a1), not as a ply count.
    const why =
      'Not allowed: it would repeat the position after the goats’ b2-a1 in move 1 (no position may repeat).';
    expect(await typeMove(page, 'a2-a1')).toBe(why);
    await page.click('[data-point="a2"]');
    await page.click('[data-point="a1"]');
    expect(await page.locator('[data-refusal]').textContent()).toBe(why);
    expect(await page.locator('.moves [data-ply="2"]').textContent()).toBe('b2-a1');
    expect(
      await page
        .locator('.moves li', { has: page.locator('[data-ply="2"]') })
        .locator('.n')
        .textContent(),
    ).toBe('1.');
    expect(await page.locator('.moves .move').count()).toBe(5);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
