// @vitest-environment node
/**
 * End to end in Chromium: a room that explains itself (issue 19). With clocks, the board, both
 * clocks and the flip control are in view at 1280×900 without scrolling, and the note of a move
 * waiting for the network shows where the player looks; at 390×844 the board fits the width and
 * nothing overflows sideways. A visitor without a seat is told they watch and how to play.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createGame, type Game, legalMoves, play } from '@bagh/rules';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  clickMove,
  createRoom,
  importGame,
  pageOpener,
  seatedPair,
  useHarness,
} from './harness.js';

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

/** A Bagh Chal game the rules end: tigers that jump whenever they can, goats that play their first move. */
function finishedGame(): Game {
  const start = createGame('bagh-chal');
  if (!start.ok) throw new Error(start.error.message);
  let game = start.value;
  while (!game.outcome) {
    const moves = legalMoves(game);
    const move = moves.find((one) => one.kind === 'jump') ?? moves[0];
    if (!move) throw new Error('no move and no outcome');
    const next = play(game, move);
    if (!next.ok) throw new Error(next.error.message);
    game = next.value;
  }
  return game;
}

/** A number written as a score ("−2.0", "+833.3", "+#5"). */
const SCORE = /[+−-]\s*#?\d|\d[.,]\d/;

describe('web e2e: a room that explains itself (Chromium)', () => {
  const harness = useHarness();

  it('keeps the board, the clocks and Flip in view at 1280×900; the waiting move’s note too', {
    timeout: 120_000,
  }, async () => {
    const { base, browser } = harness();
    const pages = pageOpener(browser);
    const { errors } = pages;
    const { goat, tiger } = await seatedPair(pages, base, DESKTOP);
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

  it('tells a visitor without a seat that they watch, and how to play: the free seat, then none', {
    timeout: 120_000,
  }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    const goat = await open('goat', DESKTOP);
    const link = await createRoom(goat, base, 'goat');
    // A player sees no such notice.
    expect(await goat.locator('[data-spectator]').count()).toBe(0);

    const visitor = await open('visitor', DESKTOP);
    await visitor.goto(link);
    const notice = visitor.locator('[data-spectator="tiger"]');
    await notice.waitFor();
    expect(await notice.locator('p').textContent()).toBe(
      'You are watching. A seat is free: take it to play.',
    );
    await expectInView(visitor, notice, 'spectator notice');
    expect(await notice.getByRole('link', { name: 'How to play' }).getAttribute('href')).toBe(
      '/how/en/bagh-chal.html',
    );

    const watcher = await open('watcher', DESKTOP);
    await watcher.goto(link);
    await watcher.locator('[data-spectator="tiger"]').waitFor();
    // The notice's own action seats the visitor.
    await notice.getByRole('button', { name: 'Take the free seat: Tigers' }).click();
    await visitor.locator('[data-seat="tiger"] .you').waitFor();
    expect(await visitor.locator('[data-spectator]').count()).toBe(0);

    const full = watcher.locator('[data-spectator="full"]');
    await full.waitFor();
    expect(await full.locator('p').textContent()).toBe(
      'You are watching. Both seats are taken: you can follow the game and chat.',
    );
    expect(await full.getByRole('button').count()).toBe(0);
    expect(errors).toEqual([]);
    for (const page of [goat, visitor, watcher]) await page.context().close();
  });

  it('says the analysis in goats ahead and the result, with no score on screen', {
    timeout: 120_000,
  }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    const page = await open('analysis', DESKTOP);
    const game = finishedGame();
    const roomId = await importGame(base, game);
    await page.goto(`${base}/r/${roomId}`);
    // A finished game offers no seat.
    expect(await page.locator('[data-spectator="over"] p').textContent()).toBe('You are watching.');
    await page.getByRole('button', { name: 'Analyse' }).click();
    const panel = page.locator('.analysis');
    // The game's last position: its result, as the result panel says it.
    await page.locator('[data-analysis="ready"]').waitFor();
    expect(await page.locator('[data-verdict]').getAttribute('data-verdict')).toBe('over');
    expect(await page.locator('[data-verdict]').textContent()).toBe(
      await page.locator('[data-result]').textContent(),
    );
    expect(await panel.textContent()).not.toMatch(SCORE);
    // The start position (the engine's −2.0 was shown), and one in the middle.
    for (const ply of [0, 10]) {
      await page.getByRole('button', { name: 'First move' }).click();
      for (let i = 0; i < ply; i++) await page.getByRole('button', { name: 'Next move' }).click();
      await page.locator(`[data-replay="${ply}"]`).waitFor();
      await page.locator('[data-analysis="ready"]').waitFor();
      const words = await page.locator('[data-verdict]').textContent();
      expect(words).toMatch(/^(Tigers|Goats|Even)/);
      expect(await panel.textContent()).not.toMatch(SCORE);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('links the header to a How to play page per variant, in the page’s language, with no script', {
    timeout: 90_000,
  }, async () => {
    const { base, browser } = harness();
    const context = await browser.newContext({ viewport: PHONE, locale: 'hi-IN' });
    const page = await context.newPage();
    const scripts: string[] = [];
    await page.goto(`${base}/`);
    await page.locator('html[lang="hi"]').waitFor();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.getByRole('link', { name: 'कैसे खेलें' }).click();
    await page.waitForURL(`${base}/how/hi/bagh-chal.html`);
    expect(await page.getAttribute('html', 'lang')).toBe('hi');
    expect(await page.locator('h1').textContent()).toBe('बाघचाल कैसे खेलें');
    // The rules in plain words, with the diagrams: the start, a jump, a trap.
    expect(await page.locator('main').textContent()).toContain('5 बकरियाँ पकड़ते ही बाघ जीत जाते हैं।');
    expect(await page.locator('main figure svg[role="img"]').count()).toBe(3);
    expect(await page.locator('script').count()).toBe(0);
    expect(scripts).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'how-to-play-hi.png'), fullPage: true });

    await page.getByRole('link', { name: 'बाघ गुटी कैसे खेलें' }).click();
    await page.waitForURL(`${base}/how/hi/bagh-guti.html`);
    // Bagh Guti's start: two tigers and four stacks of five.
    const start = page.locator('main figure svg').first();
    expect(await start.locator('circle.tiger').count()).toBe(2);
    expect(await start.locator('circle.goat + text').filter({ hasText: /^5$/ }).count()).toBe(4);
    await page.getByRole('link', { name: 'বাংলা' }).click();
    await page.waitForURL(`${base}/how/bn/bagh-guti.html`);
    expect(await page.locator('h1').textContent()).toBe('বাঘ গুটি কীভাবে খেলবেন');
    await context.close();
  });
});
