// @vitest-environment node
/**
 * End to end in Chromium, against the real server: what the page does when an answer is lost or
 * late. The page's socket goes through Playwright's WebSocket route, which can hold back or drop
 * one of the server's acks (and close the connection with it), as a flaky network would.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clickMove, createRoom, pageOpener, seatedPair, shownMove, takeSeat, useHarness } from './harness.js';

/** How the route treats the server's ack to the page's first `event`: dropped with the connection, or held. */
type Trouble = { drop: true } | { holdMs: number };

/**
 * Routes `page`'s sockets through Playwright: the ack to the first `event` the page sends once
 * `armed()` is true gets `trouble`; every other frame passes (in order: frames after a held ack wait).
 */
async function troubleAck(page: Page, event: string, trouble: Trouble, armed = () => true): Promise<void> {
  let done = false;
  await page.routeWebSocket(/socket\.io/, (ws: WebSocketRoute) => {
    const server = ws.connectToServer();
    let target: string | null = null;
    let held: (string | Buffer)[] | null = null;
    ws.onMessage((message) => {
      const sent = /^42(\d+)\["([^"]+)"/.exec(String(message));
      if (!done && target === null && sent?.[2] === event && armed()) target = sent[1]!;
      server.send(message);
    });
    server.onMessage((message) => {
      if (held) return void held.push(message);
      if (target === null || !String(message).startsWith(`43${target}[`)) return ws.send(message);
      done = true;
      target = null;
      if ('drop' in trouble) {
        void ws.close();
        void server.close();
        return;
      }
      held = [message];
      setTimeout(() => {
        for (const frame of held ?? []) ws.send(frame);
        held = null;
      }, trouble.holdMs);
    });
  });
}

const tokenOf = (page: Page, roomId: string) =>
  page.evaluate((room) => localStorage.getItem(`bagh:seat:${room}`), roomId);

describe('web e2e: lost and late answers (Chromium)', () => {
  const harness = useHarness();

  /** A game of two pages, the goat's first move played; the tiger's socket routed through `troubleAck`. */
  async function started(event: string, trouble: Trouble = { drop: true }) {
    const { open, errors } = pageOpener(harness().browser);
    const goat = await open('goat');
    const link = await createRoom(goat, harness().base, 'goat');
    const tiger = await open('tiger');
    await troubleAck(tiger, event, trouble);
    await takeSeat(tiger, link, 'tiger');
    await clickMove(goat, 'G@c3');
    await shownMove(tiger, 1);
    return { goat, tiger, errors };
  }
  const backOnline = (page: Page) =>
    page.locator('[data-connection="online"], [data-connection="back-online"]').waitFor({ timeout: 30_000 });

  it('a resignation whose answer was lost: the re-join shows it done, and no "did not answer" stays', {
    timeout: 90_000,
  }, async () => {
    const { goat, tiger, errors } = await started('resign');
    await tiger.getByRole('button', { name: 'Resign' }).click();
    await tiger.getByRole('button', { name: 'Yes, resign' }).click();
    await backOnline(tiger);
    expect(await tiger.locator('[data-result]').textContent()).toMatch(/resign/i);
    await expect.poll(() => tiger.locator('[data-error]').count()).toBe(0);
    expect(errors).toEqual([]);
    await goat.context().close();
    await tiger.context().close();
  });

  it('a resignation answered late on a live connection: "did not answer" shows, then the re-join clears it', {
    timeout: 90_000,
  }, async () => {
    const { goat, tiger, errors } = await started('resign', { holdMs: 9_000 });
    await tiger.getByRole('button', { name: 'Resign' }).click();
    await tiger.getByRole('button', { name: 'Yes, resign' }).click();
    await tiger.locator('[data-error]').waitFor({ timeout: 15_000 }); // the page's 8 s ran out
    // Its re-join (answered once the held frames pass) shows the resignation done, and clears it.
    await tiger
      .locator('[data-result]')
      .getByText(/resign/i)
      .waitFor({ timeout: 20_000 });
    await expect.poll(() => tiger.locator('[data-error]').count(), { timeout: 15_000 }).toBe(0);
    expect(errors).toEqual([]);
    await goat.context().close();
    await tiger.context().close();
  });

  it('a chat message whose answer was lost: shown after the re-join, no error left, the text kept', {
    timeout: 90_000,
  }, async () => {
    const { goat, tiger, errors } = await started('chat:send');
    const input = tiger.getByLabel('Chat message');
    await input.fill('hello');
    await input.press('Enter');
    await backOnline(tiger);
    await tiger.locator('.chat li').getByText('hello').waitFor();
    await expect.poll(() => tiger.locator('[data-error]').count()).toBe(0);
    // Unanswered: the page cannot know it was sent; the text stays, to send again or clear.
    expect(await input.inputValue()).toBe('hello');
    // Answered: cleared.
    await input.press('Enter');
    await expect.poll(() => input.inputValue()).toBe('');
    await goat.locator('.chat li').getByText('hello').nth(1).waitFor();
    expect(errors).toEqual([]);
    await goat.context().close();
    await tiger.context().close();
  });

  for (const [name, trouble] of [
    ['lost with the connection', { drop: true }],
    ['late (past the page’s 8 s)', { holdMs: 9_000 }],
  ] as const) {
    it(`a seat claim whose answer is ${name} still seats the player, after a reload too`, {
      timeout: 90_000,
    }, async () => {
      const { open, errors } = pageOpener(harness().browser);
      const goat = await open('goat');
      const link = await createRoom(goat, harness().base, 'goat');
      const roomId = link.split('/r/')[1]!;
      const tiger = await open('tiger');
      await troubleAck(tiger, 'seat:claim', trouble);
      await tiger.goto(link);
      await tiger.getByRole('button', { name: 'Play Tigers' }).click();
      // The claim is sent again after the re-join, with its key: the server's answer is the same seat.
      await tiger.locator('[data-seat="tiger"] .you').waitFor({ timeout: 30_000 });
      // A re-join shows the socket in its seat before the claim sent again is answered with the token.
      await expect.poll(() => tokenOf(tiger, roomId), { timeout: 15_000 }).toMatch(/^[\w-]{20,}$/);
      expect(await tiger.locator('[data-error]').count()).toBe(0);
      await tiger.reload();
      await tiger.locator('[data-seat="tiger"] .you').waitFor();
      expect(errors).toEqual([]);
      await goat.context().close();
      await tiger.context().close();
    });
  }
});

/** Creates a game against the beginner computer, the player on goats: its room and the player's token. */
async function botRoom(base: string): Promise<{ roomId: string; seatToken: string }> {
  const response = await fetch(`${base}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant: 'bagh-chal', side: 'goat', clock: null, opponent: { bot: 'beginner' } }),
  });
  if (!response.ok) throw new Error(`create: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as { roomId: string; seatToken: string };
}

/** Opens `roomId` on `page` holding `seatToken` (as a page that created or claimed it would). */
async function openWithToken(page: Page, base: string, roomId: string, seatToken: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.evaluate(
    ([room, token]) => localStorage.setItem(`bagh:seat:${room}`, token!),
    [roomId, seatToken],
  );
  await page.goto(`${base}/r/${roomId}`);
}

describe('web e2e: a rematch started while a player was away (Chromium)', () => {
  const harness = useHarness();

  it('the rematch link seats them with their token of the old room', { timeout: 90_000 }, async () => {
    const pages = pageOpener(harness().browser);
    const { errors } = pages;
    const { goat, tiger, link } = await seatedPair(pages, harness().base);
    await clickMove(goat, 'G@c3');
    await shownMove(tiger, 1);
    await goat.getByRole('button', { name: 'Resign' }).click();
    await goat.getByRole('button', { name: 'Yes, resign' }).click();
    await tiger.getByRole('button', { name: 'Offer rematch' }).click();
    await goat.getByRole('button', { name: 'Accept rematch' }).waitFor();
    // The offerer's network drops while the goat accepts: their page misses seat:assigned.
    await tiger.context().setOffline(true);
    await tiger.locator('[data-connection="offline"]').waitFor();
    await goat.getByRole('button', { name: 'Accept rematch' }).click();
    await goat.waitForURL((url) => url.href !== link);
    await tiger.context().setOffline(false);
    await tiger.locator('[data-rematch-link]').click();
    await tiger.waitForURL(goat.url());
    // Sides swapped: the tiger plays goats now, seated, not watching.
    await tiger.locator('[data-seat="goat"] .you').waitFor();
    expect(await tiger.locator('[data-seat] .you').count()).toBe(1);
    expect(errors).toEqual([]);
    await goat.context().close();
    await tiger.context().close();
  });
});

describe('web e2e: an old page after a deploy (Chromium)', () => {
  const harness = useHarness();

  /**
   * A page of the old build whose language chunk is gone from the server (`missing` times: the
   * new build has its own), with no service worker to answer from its cache.
   */
  async function oldPage(missing: number) {
    const context = await harness().browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${harness().base}/computer`);
    await page.locator('[data-language]').waitFor();
    let loads = 0;
    page.on('load', () => loads++);
    let left = missing;
    await page.route(/\/assets\/ne-[\w-]+\.js$/, (route) =>
      left-- > 0 ? route.fulfill({ status: 404, body: 'gone' }) : route.continue(),
    );
    return { page, errors, loads: () => loads };
  }

  it('a language switch whose chunk is gone reloads the page once, in the language chosen', {
    timeout: 60_000,
  }, async () => {
    const { page, errors, loads } = await oldPage(1);
    await page.locator('[data-language]').selectOption('ne');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ne');
    expect(loads()).toBe(1);
    expect(await page.locator('[data-language]').inputValue()).toBe('ne');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a chunk missing from the new build too: one reload, no loop, the language shown stays chosen', {
    timeout: 60_000,
  }, async () => {
    const { page, errors, loads } = await oldPage(Number.POSITIVE_INFINITY);
    await page.locator('[data-language]').selectOption('ne');
    await expect.poll(loads).toBe(1);
    await page.locator('[data-language]').waitFor();
    // The reloaded page could not show Nepali either: English, and no second reload.
    await page.locator('[data-language]').selectOption('ne');
    await expect.poll(() => page.locator('[data-language]').inputValue()).toBe('en');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(loads()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('web e2e: a refused first join (Chromium)', () => {
  // One game against the computer in play per address: the second one's join is refused RATE_LIMITED.
  const harness = useHarness({ BOT_GAMES_PER_ADDRESS: '1' });

  it('says why (RATE_LIMITED), tries again by itself, and gets in once it may', {
    timeout: 90_000,
  }, async () => {
    const { base } = harness();
    const { open, errors } = pageOpener(harness().browser);
    const first = await botRoom(base);
    // A restart forgets that the first game is in play; a second one takes the address's place.
    await harness().stopServer('SIGTERM');
    await harness().startServer();
    const second = await botRoom(base);
    const player = await open('player');
    await openWithToken(player, base, first.roomId, first.seatToken);
    const loading = player.locator('.loading');
    await expect.poll(() => loading.getAttribute('data-join-error')).toBe('RATE_LIMITED');
    expect(await loading.textContent()).toMatch(/^Slow down a little \(.+\)\. Trying again…$/);
    // The second game ends: the first one's join, tried again, is let in.
    const other = await open('other tab');
    await openWithToken(other, base, second.roomId, second.seatToken);
    await other.getByRole('button', { name: 'Abort' }).click();
    await other.locator('[data-result]').waitFor();
    await player.locator('[data-seat="goat"] .you').waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    await player.context().close();
    await other.context().close();
  });

  it('says the server cannot be reached when reloaded while it is down, and joins once it is back', {
    timeout: 90_000,
  }, async () => {
    const { base } = harness();
    const { open, errors } = pageOpener(harness().browser);
    const goat = await open('goat');
    await createRoom(goat, base, 'goat');
    // The service worker serves the page's shell while the server is down.
    await goat.evaluate(() => navigator.serviceWorker.ready);
    await expect.poll(() => goat.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await harness().stopServer('SIGTERM');
    await goat.reload();
    const loading = goat.locator('.loading');
    await expect.poll(() => loading.textContent()).toBe('The server cannot be reached. Trying again…');
    await harness().startServer();
    await goat.locator('[data-seat="goat"] .you').waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    await goat.context().close();
  });
  // Last here: it loses the server's data.
  it('a room gone while its pages were open (a re-join refused NOT_FOUND) says so: no board, no clock, no moves', {
    timeout: 90_000,
  }, async () => {
    const { base, dataDir } = harness();
    const pages = pageOpener(harness().browser);
    const { errors } = pages;
    const { goat, tiger } = await seatedPair(pages, base);
    await clickMove(goat, 'G@c3');
    await shownMove(tiger, 1);
    await harness().stopServer('SIGKILL');
    for (const file of ['bagh.sqlite', 'bagh.sqlite-wal', 'bagh.sqlite-shm'])
      rmSync(join(dataDir, file), { force: true });
    await harness().startServer();
    for (const page of [goat, tiger]) {
      await page.locator('.missing h1').getByText('Room not found').waitFor({ timeout: 30_000 });
      expect(await page.locator('[data-point], [data-clock], [data-connection]').count()).toBe(0);
    }
    expect(errors).toEqual([]);
    await goat.context().close();
    await tiger.context().close();
  });
});
