// @vitest-environment node
/**
 * End to end in Chromium: issue 19's loose ends. The move box's translated placeholder draws with
 * the bundled script font (the monospace font has no Devanagari or Bengali: empty boxes); a
 * watcher's notice is in the first screen of a phone, and beside the board on a desktop.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, createRoom, pageOpener, useHarness } from './harness.js';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

async function setLocale(page: Page, locale: string): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('bagh:locale', value), locale);
  await page.reload();
}

/** `locator`'s box, which must lie inside the viewport (the page not scrolled). */
async function inView(page: Page, locator: Locator, what: string) {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize()!;
  expect(box, what).not.toBeNull();
  const { x, y } = box!;
  expect({ what, x, y, right: x + box!.width, bottom: y + box!.height }).toEqual({
    what,
    x: expect.toSatisfy((v: number) => v >= 0),
    y: expect.toSatisfy((v: number) => v >= 0),
    right: expect.toSatisfy((v: number) => v <= width),
    bottom: expect.toSatisfy((v: number) => v <= height),
  });
  return box!;
}

describe('web e2e: polish (Chromium)', () => {
  const harness = useHarness();

  it('draws the move box’s placeholder in Nepali, Hindi and Bengali with the script’s font', {
    timeout: 120_000,
  }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    mkdirSync(ARTIFACTS, { recursive: true });
    const page = await open('tiger', DESKTOP);
    // The tigers' seat, goats to move: the move box is disabled and says "Not your turn".
    await createRoom(page, base, 'tiger');
    const cases = [
      { locale: 'ne', text: 'तपाईंको पालो होइन', font: 'Noto Sans Devanagari' },
      { locale: 'hi', text: 'आपकी बारी नहीं', font: 'Noto Sans Devanagari' },
      { locale: 'bn', text: 'আপনার পালা নয়', font: 'Noto Sans Bengali' },
    ];
    for (const { locale, text, font } of cases) {
      await setLocale(page, locale);
      const input = page.locator('#move-text');
      await expect.poll(() => input.getAttribute('placeholder')).toBe(text);
      // Widths of the placeholder's letters (no spaces: those come from the monospace font) drawn
      // in the input's font, in the script's font, and in monospace alone (empty boxes here).
      const widths = await input.evaluate(async (el, family) => {
        const field = el as HTMLInputElement;
        const letters = field.placeholder.replace(/\s/g, '');
        const style = getComputedStyle(field);
        await document.fonts.load(`${style.fontSize} "${family}"`, letters);
        const context = document.createElement('canvas').getContext('2d')!;
        const width = (fonts: string) => {
          context.font = `${style.fontSize} ${fonts}`;
          return context.measureText(letters).width;
        };
        return {
          loaded: document.fonts.check(`${style.fontSize} "${family}"`, letters),
          input: width(style.fontFamily),
          script: width(`"${family}"`),
          monospace: width('monospace'),
        };
      }, font);
      expect(widths.loaded, locale).toBe(true);
      expect(widths.input, locale).toBeCloseTo(widths.script, 1);
      expect(Math.abs(widths.input - widths.monospace), locale).toBeGreaterThan(1);
      await input.screenshot({ path: join(ARTIFACTS, `web-e2e-polish-move-box-${locale}.png`) });
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a watcher’s notice in a phone’s first screen, and beside the board on a desktop', {
    timeout: 120_000,
  }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    const goat = await open('goat', DESKTOP);
    const link = await createRoom(goat, base, 'goat');

    const phone = await open('phone', PHONE);
    await phone.goto(link);
    const notice = phone.locator('[data-spectator="tiger"]');
    await notice.waitFor();
    expect(await phone.evaluate(() => window.scrollY)).toBe(0);
    const shown = await inView(phone, notice, 'notice on a phone');
    // Above the board, which still starts in the first screen.
    const board = (await phone.locator('svg.board').boundingBox())!;
    expect(shown.y + shown.height).toBeLessThanOrEqual(board.y);
    expect(board.y).toBeLessThan(PHONE.height / 2);
    mkdirSync(ARTIFACTS, { recursive: true });
    await phone.screenshot({ path: join(ARTIFACTS, 'web-e2e-polish-watcher-phone.png') });

    const desk = await open('desk', DESKTOP);
    await desk.goto(link);
    const beside = desk.locator('[data-spectator="tiger"]');
    await beside.waitFor();
    const note = await inView(desk, beside, 'notice on a desktop');
    const deskBoard = await inView(desk, desk.locator('svg.board'), 'board on a desktop');
    await inView(desk, desk.getByRole('button', { name: 'Flip the board' }), 'flip on a desktop');
    // In the side column, heading it: not above the board, which keeps its place.
    expect(note.x).toBeGreaterThanOrEqual(deskBoard.x + deskBoard.width);
    const seats = (await desk.locator('[data-seat="tiger"]').boundingBox())!;
    expect(note.y).toBeLessThan(seats.y);
    await desk.screenshot({ path: join(ARTIFACTS, 'web-e2e-polish-watcher-desktop.png') });
    expect(errors).toEqual([]);
    for (const page of [goat, phone, desk]) await page.context().close();
  });
});
