// @vitest-environment node
/**
 * End to end in a real Chromium: a store outage as the page sees it. The goat's socket goes
 * through a route that answers its `move` with the server's `UNAVAILABLE` (what a full disk
 * gives) for as long as the outage lasts, forwarding everything else. The move clicked meanwhile
 * stays on the board as the waiting move — status and note steady, no error, no flicker — is
 * tried again by itself past the old three tries, and is played exactly once when the store is
 * back.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import type { Snapshot } from '@bagh/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clickMove, createRoom, pageOpener, shownMove, takeSeat, useHarness } from './harness.js';

/** A Socket.IO event the page sends: `42<ack id>["name",payload]` (the default namespace). */
const EVENT = /^42(\d+)\["([\w:]+)"/;

/** Routes `page`'s sockets to the server, answering its moves UNAVAILABLE while `outage.on`. */
async function withStoreOutage(page: Page, outage: { on: boolean; refused: number }): Promise<void> {
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const event = typeof message === 'string' ? EVENT.exec(message) : null;
      if (outage.on && event?.[2] === 'move') {
        outage.refused++;
        const error = { code: 'UNAVAILABLE', message: 'the game could not be saved; try again' };
        ws.send(`43${event[1]}${JSON.stringify([{ ok: false, error }])}`);
        return;
      }
      server.send(message);
    });
  });
}

describe('a store outage', () => {
  const harness = useHarness();

  it('keeps the move clicked during it waiting, steady on the board, and plays it once when the store is back', {
    timeout: 120_000,
  }, async () => {
    const { base, browser } = harness();
    const { open, errors } = pageOpener(browser);
    const goat = await open('goat');
    const outage = { on: false, refused: 0 };
    await withStoreOutage(goat, outage);
    const link = await createRoom(goat, base, 'goat');
    const tiger = await open('tiger');
    await takeSeat(tiger, link, 'tiger');
    await goat.locator('.status.turn').waitFor();

    outage.on = true;
    await clickMove(goat, 'G@c3');
    await goat.locator('[data-waiting-move="G@c3"]').waitFor();
    // Past the old three tries (the old client dropped the move at the 4th refusal), sampled
    // often: never "Your turn", never the piece gone. Six refusals: 12–17 s with the backoff.
    const seen = new Set<string>();
    const until = Date.now() + 40_000;
    while (outage.refused < 6 && Date.now() < until) {
      seen.add(
        JSON.stringify({
          // Reads that do not wait: a note or piece gone for a moment is seen as gone.
          status: await goat.locator('[data-status]').allTextContents(),
          note: await goat.locator('[data-waiting-move]').allTextContents(),
          goatOnC3: await goat.locator('[data-point="c3"] [data-piece="goat"]').count(),
          errors: await goat.locator('[data-error]').allTextContents(),
        }),
      );
      await goat.waitForTimeout(50);
    }
    expect([...seen].map((s) => JSON.parse(s))).toEqual([
      {
        status: ['Your move G@c3 waits to be sent'],
        note: ['Your move G@c3 will be sent when the server can take it.'],
        goatOnC3: 1,
        errors: [],
      },
    ]);
    expect(outage.refused).toBeGreaterThanOrEqual(6);

    outage.on = false;
    expect(await (await shownMove(tiger, 1, 15_000)).textContent()).toBe('G@c3');
    await goat.locator('[data-waiting-move]').waitFor({ state: 'detached' });
    expect(await goat.locator('.moves .move').allTextContents()).toEqual(['G@c3']);
    expect(await goat.locator('[data-error]').count()).toBe(0);
    const roomId = new URL(link).pathname.split('/').pop();
    const stored = (await (await fetch(`${base}/api/rooms/${roomId}`)).json()) as Snapshot;
    expect(stored.moves).toEqual(['G@c3']); // played once
    expect(errors).toEqual([]);
  });
});
