// @vitest-environment node
/**
 * End to end in a real Chromium: a store outage as the page sees it. The server's SQLite file is
 * write-locked by another connection (a backup, a second process: every change is refused
 * `UNAVAILABLE`, as on a full disk) for 15 s, well past the old client's three tries. The move
 * clicked meanwhile stays on the board as the waiting move — status and note steady, no error,
 * no flicker — is tried again by itself, and is played exactly once when the lock is gone.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { join } from 'node:path';
import type { Snapshot } from '@bagh/protocol';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { clickMove, pageOpener, seatedPair, shownMove, useHarness } from './harness.js';

/** How long the store stays locked: the old client gave a move up after three refusals (~7 s). */
const OUTAGE_MS = 15_000;

describe('a store outage', () => {
  const harness = useHarness();

  it('keeps the move clicked during it waiting, steady on the board, and plays it once when the store is back', {
    timeout: 120_000,
  }, async () => {
    const { base, browser, dataDir } = harness();
    const pages = pageOpener(browser);
    const { errors } = pages;
    const { goat, tiger, link } = await seatedPair(pages, base);
    await goat.locator('.status.turn').waitFor();

    const locker = new Database(join(dataDir, 'bagh.sqlite'));
    locker.exec('BEGIN EXCLUSIVE');
    try {
      await clickMove(goat, 'G@c3');
      await goat.locator('[data-waiting-move="G@c3"]').waitFor();
      // Sampled often: never "Your turn", never the piece gone, never an error.
      const seen = new Set<string>();
      const until = Date.now() + OUTAGE_MS;
      while (Date.now() < until) {
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
      expect(await tiger.locator('.moves .move').count()).toBe(0); // nothing stored, nothing shown
    } finally {
      locker.exec('COMMIT');
      locker.close();
    }

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
