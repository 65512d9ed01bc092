// @vitest-environment node
/**
 * End to end in Chromium: a room that explains itself (issue 19). With clocks, the board, both
 * clocks and the flip control are in view at 1280×900 without scrolling, and the note of a move
 * waiting for the network shows where the player looks; at 390×844 the board fits the width and
 * nothing overflows sideways. A visitor without a seat is told they watch and how to play.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clickMove, createRoom, pageOpener, takeSeat, useHarness } from './harness.js';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** `locator`'s box lies inside the viewport (the page not scrolled). */
async function expectInView(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize()!;
  expect(box, what).not.toBeNull();
  expect({
    what,
    left: box!.x,
    top: box!.y,
    right: box!.x + box!.width,
    bottom: box!.y + box!.height,
  }).toEqual({
    what,
    left: expect.toSatisfy((x: number) => x >= 0),
    top: expect.toSatisfy((y: number) => y >= 0),
    right: expect.toSatisfy((x: number) => x <= width),
    bottom: expect.toSatisfy((y: number) => y <= height),
  });
}

describe('web e2e: a room that explains itself (Chromium)', () => {
  const harness = useHarness();

  it('keeps the board, the clocks and Flip in view at 1280×900; the waiting move’s note too', {
    timeout: 120_000,
  }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    const goat = await open('goat', DESKTOP);
    await createRoom(goat, base, 'goat');
    const link = await goat.getByLabel('Room link').inputValue();
    const tiger = await open('tiger', DESKTOP);
    await takeSeat(tiger, link, 'tiger');
    await goat.locator('.status.turn').waitFor();

    expect(await goat.evaluate(() => window.scrollY)).toBe(0);
    await expectInView(goat, goat.locator('svg.board'), 'board');
    await expectInView(goat, goat.locator('[data-clock="tiger"]'), 'tiger clock');
    await expectInView(goat, goat.locator('[data-clock="goat"]'), 'goat clock');
    await expectInView(goat, goat.getByRole('button', { name: 'Flip the board' }), 'flip');

    await goat.context().setOffline(true);
    await goat.locator('[data-connection="offline"]').waitFor();
    await clickMove(goat, 'G@c3');
    const note = goat.locator('[data-waiting-move="G@c3"]');
    await note.waitFor();
    await expectInView(goat, note, 'waiting move note');
    // Above the board, beside the status line: not under the board where the eye is not.
    const board = (await goat.locator('svg.board').boundingBox())!;
    expect((await note.boundingBox())!.y).toBeLessThan(board.y);
    await goat.context().setOffline(false);
    await goat.locator('[data-waiting-move]').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await goat.context().close();
    await tiger.context().close();
  });

  it('fits a 390×844 phone: the board in the width, nothing overflowing sideways', {
    timeout: 90_000,
  }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    const page = await open('phone', PHONE);
    await createRoom(page, base, 'goat');
    await expectInView(page, page.locator('svg.board'), 'board');
    // Every element stays within the width (a wide one would make the page pan sideways).
    const wide = await page.evaluate(
      (width) =>
        [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > width + 0.5)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
      PHONE.width,
    );
    expect(wide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
