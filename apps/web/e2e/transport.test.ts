// @vitest-environment node
/**
 * A network that blocks WebSockets (some proxies do) still plays: the page falls back to HTTP
 * long-polling, which the build makes engine.io-client's fetch() transport (vite.config.ts).
 * One page's WebSockets all fail; it creates a room and plays against a page on WebSockets.
 */
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clickMove, createRoom, pageOpener, shownMove, takeSeat, useHarness } from './harness.js';

describe('web e2e: long-polling when WebSockets are blocked (Chromium)', () => {
  const harness = useHarness();

  it('creates a room and plays both ways with polling only', { timeout: 90_000 }, async () => {
    const { open, errors } = pageOpener(harness().browser);

    const goat = await open('goat');
    // As behind a proxy that refuses the upgrade: every WebSocket the page opens fails to connect
    // (the URLs it asked for are kept, to show the page tried the server's first).
    await goat.addInitScript(() => {
      const Real = window.WebSocket;
      const asked: string[] = [];
      Reflect.set(window, 'blockedSockets', asked);
      window.WebSocket = class extends Real {
        constructor(url: string | URL, protocols?: string | string[]) {
          asked.push(String(url));
          super('ws://127.0.0.1:9/blocked', protocols);
        }
      };
    });
    const socketRequests: Request[] = [];
    goat.on('request', (request) => {
      if (request.url().includes('/socket.io/')) socketRequests.push(request);
    });

    const link = await createRoom(goat, harness().base, 'goat');
    const tiger = await open('tiger');
    await takeSeat(tiger, link, 'tiger');

    await clickMove(goat, 'G@c3');
    await shownMove(tiger, 1);
    await clickMove(tiger, 'a1-b1');
    await expect((await shownMove(goat, 2)).textContent()).resolves.toContain('a1-b1');

    const asked = await goat.evaluate(() => Reflect.get(window, 'blockedSockets') as string[]);
    expect(asked.some((url) => url.includes('/socket.io/') && url.includes('transport=websocket'))).toBe(
      true,
    );
    const polls = socketRequests.filter((request) => request.url().includes('transport=polling'));
    expect(polls.map((request) => request.resourceType())).toContain('fetch');
    expect(polls.some((request) => request.method() === 'POST')).toBe(true);
    expect(errors).toEqual([]);
  });
});
