import type { Side } from '@bagh/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createRoom, getSnapshot, removeDir, startServer, type TestServer } from './helpers.js';
import { BAGH_CHAL_GOAT_WIN, BAGH_CHAL_TIGER_WIN, BAGH_GUTI_TIGER_WIN } from './lines.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
});

/**
 * The creator takes `creatorSide` over HTTP and joins with its token, a friend claims the other
 * seat, a spectator watches; the two players alternate the moves of `line`.
 */
async function playGame(variant: string, creatorSide: Side, line: readonly string[]) {
  const created = await createRoom(server.url, { variant, side: creatorSide });
  expect(created.side).toBe(creatorSide);
  expect(created.url).toBe(`/r/${created.roomId}`);
  const { roomId } = created;

  const creator = await Client.connect(server.url);
  const friend = await Client.connect(server.url);
  const watcher = await Client.connect(server.url);
  const clients = [creator, friend, watcher];
  try {
    const joined = await creator.request('room:join', { roomId, seatToken: created.seatToken });
    expect(joined).toMatchObject({ ok: true, role: creatorSide });
    const watching = await watcher.request('room:join', { roomId });
    expect(watching).toMatchObject({ ok: true, role: 'spectator' });
    const otherSide: Side = creatorSide === 'tiger' ? 'goat' : 'tiger';
    const claimed = await friend.request('seat:claim', { roomId, side: otherSide });
    expect(claimed.ok).toBe(true);
    expect(claimed.seatToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(claimed.snapshot.seats).toEqual({
      tiger: { taken: true, connected: true },
      goat: { taken: true, connected: true },
    });
    const players: Record<Side, Client> = { [creatorSide]: creator, [otherSide]: friend } as Record<
      Side,
      Client
    >;

    let toMove: Side = claimed.snapshot.toMove;
    let version = claimed.snapshot.version;
    for (const [ply, move] of line.entries()) {
      const ack = await players[toMove].request('move', { roomId, move, ply });
      expect(ack, `move ${ply} ${move}`).toEqual({ ok: true, version: version + 1 });
      version = ack.version;
      const seen = await watcher.waitForVersion(version);
      expect(seen).toMatchObject({ type: 'move', move, side: toMove, version });
      toMove = seen.snapshot.toMove;
    }

    // The watcher saw every move, in order, with versions rising by exactly one.
    const versions = watcher.events.map((e) => e.version);
    expect(versions).toEqual(versions.map((_, i) => versions[0]! + i));
    expect(watcher.events.filter((e) => e.type === 'move').map((e) => e.move)).toEqual(line);
    await friend.waitForVersion(version);
    await creator.waitForVersion(version);

    // Seat tokens never appear in any broadcast or in the public snapshot.
    const snapshot = await getSnapshot(server.url, roomId);
    const publicText = [...clients.flatMap((c) => c.raw), JSON.stringify(snapshot)].join('\n');
    expect(publicText).not.toContain(created.seatToken);
    expect(publicText).not.toContain(claimed.seatToken);
    expect(publicText.toLowerCase()).not.toContain('token');
    return snapshot;
  } finally {
    for (const client of clients) client.close();
  }
}

describe('complete games, two players and a spectator', () => {
  it('Bagh Chal to a tiger win by captures', async () => {
    const end = await playGame('bagh-chal', 'goat', BAGH_CHAL_TIGER_WIN);
    expect(end.result).toEqual({ winner: 'tiger', reason: 'captures' });
    expect(end.captured).toBe(5);
    expect(end.moves).toEqual(BAGH_CHAL_TIGER_WIN);
  });

  it('Bagh Chal to a goat win by trapping the tigers', async () => {
    const end = await playGame('bagh-chal', 'tiger', BAGH_CHAL_GOAT_WIN);
    expect(end.result).toEqual({ winner: 'goat', reason: 'trapped' });
    expect(end.goatsInHand).toBe(7);
  });

  it('Bagh Guti, tigers first, to a tiger win', async () => {
    const end = await playGame('bagh-guti', 'tiger', BAGH_GUTI_TIGER_WIN);
    expect(end.variant).toBe('bagh-guti');
    expect(end.result).toEqual({ winner: 'tiger', reason: 'captures' });
    expect(end.position).toMatch(/ g 0 14$/);
  });
});
