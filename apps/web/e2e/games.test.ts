// @vitest-environment node
/**
 * End to end in a real Chromium (issue 17): /games says what will appear there while no game has
 * finished; a game played over sockets to a resignation then appears, linked from the header,
 * and clicking it opens the room's replay.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import type { CreateRoomReply } from '@bagh/protocol';
import { io, type Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { pageOpener, useHarness } from './harness.js';

/** A connected Socket.IO client of the server (the players: the test plays through sockets). */
async function connect(base: string): Promise<Socket> {
  const socket = io(base, { transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

const request = (socket: Socket, event: string, payload: unknown): Promise<{ ok: boolean }> =>
  socket.timeout(5000).emitWithAck(event, payload);

/** A Bagh Chal game played over sockets: two moves, then the tiger resigns. Its room id. */
async function playAndResign(base: string): Promise<string> {
  const response = await fetch(`${base}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant: 'bagh-chal', side: 'goat' }),
  });
  const created = (await response.json()) as CreateRoomReply;
  const { roomId } = created;
  const [goat, tiger] = [await connect(base), await connect(base)];
  try {
    expect(await request(goat, 'room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
    });
    expect(await request(tiger, 'seat:claim', { roomId, side: 'tiger' })).toMatchObject({ ok: true });
    expect(await request(goat, 'move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    expect(await request(tiger, 'move', { roomId, move: 'a1-b1', ply: 1 })).toMatchObject({ ok: true });
    expect(await request(tiger, 'resign', { roomId })).toMatchObject({ ok: true });
  } finally {
    goat.close();
    tiger.close();
  }
  return roomId;
}

describe('web e2e: finished games (Chromium)', () => {
  const harness = useHarness();

  it('lists a finished game and opens its replay', { timeout: 60_000 }, async () => {
    const { base, browser } = harness();
    const pages = pageOpener(browser);
    const page = await pages.open('reader');

    // Nothing has finished yet: the empty state says what will appear.
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: 'Finished games' }).click();
    await page.waitForURL(`${base}/games`);
    await expect.poll(() => page.locator('[data-games-empty]').textContent()).toContain('played to its end');

    const roomId = await playAndResign(base);
    await page.reload();
    const entry = page.locator(`[data-game="${roomId}"]`);
    await entry.waitFor();
    const text = (await entry.textContent()) ?? '';
    for (const shown of ['Bagh Chal', 'Goats win — resignation', 'Moves: 1', 'untimed'])
      expect(text).toContain(shown);

    // Its link opens the room: a replay of the finished game.
    await entry.locator('a').click();
    await page.waitForURL(`${base}/r/${roomId}`);
    await page.locator('[data-replay="2"]').waitFor();
    expect(await page.locator('[data-status]').textContent()).toBe('Goats win — resignation');
    expect(pages.errors).toEqual([]);
  });
});
