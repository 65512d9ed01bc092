// @vitest-environment node
/**
 * End to end in Chromium: issue 19's findings. The replay buttons draw icons that need no font
 * (Debian's Chromium has no glyph for ⏮ ⏭) under translated names; the live list spaces its
 * parts and counts moves as the move list numbers them; a player whose draw offer is declined is
 * told so above the board; a page gone offline shows the opponent's presence as unknown.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  clickMove,
  createRoom,
  importGame,
  pageOpener,
  shownMove,
  takeSeat,
  useHarness,
} from './harness.js';

const DESKTOP = { width: 1280, height: 900 };

/** Shows `page` in `locale` from its next load (the switcher's stored choice). */
async function setLocale(page: Page, locale: string): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('bagh:locale', value), locale);
  await page.reload();
}

/** The seated player's own status line, once it says it is their turn. */
const yourTurn = (page: Page) => page.locator('.status.turn').waitFor();

describe('web e2e: issue 19 findings (Chromium)', () => {
  const harness = useHarness();

  it('replay buttons draw SVG icons, under translated names', { timeout: 90_000 }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    const roomId = await importGame(base, ['G@c3', 'a1-b1', 'G@d3']);
    const page = await open('replay', DESKTOP);
    await page.goto(`${base}/r/${roomId}`);
    await page.locator('[data-replay="3"]').waitFor();

    const names = ['First move', 'Previous move', 'Next move', 'Last move'];
    const buttons = names.map((name) => page.getByRole('button', { name, exact: true }));
    for (const button of buttons) {
      // No text for a font to draw: the icon is an SVG shape of its own.
      expect((await button.textContent())?.trim()).toBe('');
      const icon = await button.locator('svg path').boundingBox();
      expect(icon?.width).toBeGreaterThan(4);
      expect(icon?.height).toBeGreaterThan(4);
    }
    // First and last differ on screen (as empty boxes, the glyphs drew the same).
    const [first, , , last] = await Promise.all(buttons.map((button) => button.screenshot()));
    expect(first?.equals(last!)).toBe(false);
    await buttons[0]!.click();
    await page.locator('[data-replay="0"]').waitFor();
    await buttons[3]!.click();
    await page.locator('[data-replay="3"]').waitFor();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('.replay').screenshot({ path: join(ARTIFACTS, 'web-e2e-findings-replay.png') });

    await setLocale(page, 'hi');
    await page.locator('[data-replay="3"]').waitFor();
    for (const name of ['पहली चाल', 'आख़िरी चाल']) {
      await page.getByRole('button', { name, exact: true }).locator('svg').waitFor();
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('the live list spaces its parts and counts moves as the move list does', {
    timeout: 90_000,
  }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    const goat = await open('goat');
    await createRoom(goat, base, 'goat', { public: true });
    const roomId = new URL(goat.url()).pathname.split('/').pop()!;
    const tiger = await open('tiger');
    await takeSeat(tiger, goat.url(), 'tiger');
    await yourTurn(goat);
    await clickMove(goat, 'G@c3');
    await yourTurn(tiger);
    await clickMove(tiger, 'a1-b1');
    await yourTurn(goat);
    await clickMove(goat, 'G@d3');
    await shownMove(tiger, 3);
    // Three plies: the move list's rows 1 (G@c3 a1-b1) and 2 (G@d3).
    expect(await tiger.locator('.moves li').count()).toBe(2);

    const watcher = await open('watcher', DESKTOP);
    await watcher.goto(`${base}/live`);
    const entry = watcher.locator(`[data-live-room="${roomId}"] a`);
    await entry.filter({ hasText: 'Moves: 2' }).waitFor();
    const words = ((await entry.textContent()) ?? '').split(/\s+/).join(' ');
    expect(words).toContain('Tigers: playing Goats: playing');
    expect(words).not.toMatch(/playing\.?Goats|\bmoves\b/);

    await setLocale(watcher, 'hi');
    await entry.filter({ hasText: 'चालें: 2' }).waitFor();
    expect(errors).toEqual([]);
    for (const page of [goat, tiger, watcher]) await page.context().close();
  });

  it('tells the player whose draw offer was declined, above the board', { timeout: 90_000 }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    const goat = await open('goat', DESKTOP);
    await createRoom(goat, base, 'goat');
    const tiger = await open('tiger', DESKTOP);
    await takeSeat(tiger, goat.url(), 'tiger');
    await yourTurn(goat);
    await clickMove(goat, 'G@c3');
    await shownMove(tiger, 1);

    await goat.getByRole('button', { name: 'Offer draw' }).click();
    await goat.locator('[data-draw-offered]').waitFor();
    await tiger.locator('[data-draw-offer]').getByRole('button', { name: 'Decline' }).click();
    await goat.locator('[data-draw-offered]').waitFor({ state: 'detached' });

    const note = goat.locator('.status [data-status-note]');
    await note.waitFor();
    expect(await note.textContent()).toBe('Your opponent declined your draw offer.');
    // In sight: within the first screen, above the board.
    const [box, board] = [await note.boundingBox(), await goat.locator('svg.board').boundingBox()];
    expect(box!.y + box!.height).toBeLessThanOrEqual(DESKTOP.height);
    expect(box!.y).toBeLessThan(board!.y);
    mkdirSync(ARTIFACTS, { recursive: true });
    await goat.screenshot({ path: join(ARTIFACTS, 'web-e2e-findings-draw-declined.png') });
    // The one who declined is told nothing; nor is anyone once the offerer plays on.
    expect(await tiger.locator('[data-status-note]').textContent()).toBe('');
    await clickMove(tiger, 'a1-b1');
    await yourTurn(goat);
    expect(await note.isVisible()).toBe(true); // the tiger's move does not hide it
    await clickMove(goat, 'G@d3');
    await note.waitFor({ state: 'hidden' });
    expect(await note.textContent()).toBe('');
    expect(errors).toEqual([]);
    for (const page of [goat, tiger]) await page.context().close();
  });

  it('shows the opponent’s presence as unknown while this page is offline', { timeout: 90_000 }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    const goat = await open('goat', DESKTOP);
    await createRoom(goat, base, 'goat');
    const tiger = await open('tiger');
    await takeSeat(tiger, goat.url(), 'tiger');
    const presence = goat.locator('[data-seat="tiger"] [data-presence]');
    await presence.filter({ hasText: 'Connected' }).waitFor();

    await goat.context().setOffline(true);
    await goat.locator('[data-connection="offline"]').waitFor();
    // The snapshot still says the tiger is connected; the page cannot know.
    expect((await presence.textContent())?.trim()).toBe('Unknown');
    expect(await presence.getAttribute('data-presence')).toBe('unknown');
    expect(await goat.locator('[data-opponent]').getAttribute('data-opponent')).toBe('unknown');

    await goat.context().setOffline(false);
    await presence.filter({ hasText: 'Connected' }).waitFor();
    expect(errors).toEqual([]);
    for (const page of [goat, tiger]) await page.context().close();
  });
});
