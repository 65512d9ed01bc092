// @vitest-environment node
/**
 * End to end in Chromium, against the real server: what the page does when an answer is lost or
 * late. The page's socket goes through Playwright's WebSocket route, which can hold back or drop
 * one of the server's acks (and close the connection with it), as a flaky network would.
 */
import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createRoom, pageOpener, useHarness } from './harness.js';

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
      expect(await tokenOf(tiger, roomId)).toMatch(/^[\w-]{20,}$/);
      expect(await tiger.locator('[data-error]').count()).toBe(0);
      await tiger.reload();
      await tiger.locator('[data-seat="tiger"] .you').waitFor();
      expect(errors).toEqual([]);
      await goat.context().close();
      await tiger.context().close();
    });
  }
});
