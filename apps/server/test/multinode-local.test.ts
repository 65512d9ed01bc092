/**
 * A room whose sockets are all on one node is broadcast there only, without the Redis publish
 * (what owner-node routing gives: deploy/nginx.conf hashes a room's sockets to one node). Another
 * node that held the room earlier missed those events: a socket joining there must still get
 * every later event, and a command from it must be judged on the current room. Two real nodes on a
 * real PostgreSQL and redis-server; the publishes are counted by Redis itself (INFO commandstats).
 * Run after `pnpm build`.
 */
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { getSnapshot, perTest, playMoves } from './helpers.js';
import { BAGH_CHAL_GOAT_WIN } from './lines.js';
import { startNode, useShared } from './multinode-helpers.js';

const fixture = perTest();
const cluster = useShared();

/** SPUBLISH commands Redis has run so far (every node's broadcasts and cluster requests). */
async function publishes(url: string): Promise<number> {
  const redis = createClient({ url });
  await redis.connect();
  try {
    const stats = await redis.info('commandstats');
    return Number(/cmdstat_spublish:calls=(\d+)/.exec(stats)?.[1] ?? 0);
  } finally {
    await redis.close();
  }
}

describe('a room played on one node alone', () => {
  it('publishes nothing; a spectator joining on another node then sees every move, a player there is judged on the current room', async () => {
    const shared = cluster();
    const [a, b] = await Promise.all([startNode(shared), startNode(shared)]);
    for (const n of [a, b]) fixture.defer(() => n.stop());
    const redisUrl = shared.redis.url;
    const { roomId, goat, tiger, claimed } = await fixture.seat(a.url);
    const line = BAGH_CHAL_GOAT_WIN;

    // Node B holds the room (a spectator came and went): its cache stops at the leave.
    const [passer] = await fixture.clients(b.url);
    const passed = await passer.request('room:join', { roomId });
    expect(passed).toMatchObject({ ok: true, snapshot: { spectators: 1 } });
    expect(await passer.request('room:leave', { roomId })).toEqual({ ok: true });
    await goat.waitFor((e) => e.version > passed.snapshot.version && e.snapshot.spectators === 0);

    // Five moves with both players on A: no publish at all.
    const before = await publishes(redisUrl);
    const played = await playMoves({ roomId, goat, tiger }, line.slice(0, 5));
    expect(await publishes(redisUrl)).toBe(before);

    // The tiger's player goes over to B (its socket on A closes), and a spectator joins there.
    tiger.close();
    const [tigerB, watcher] = await fixture.clients(b.url, b.url);
    const watched = await watcher.request('room:join', { roomId });
    expect(watched).toMatchObject({ ok: true, role: 'spectator' });
    expect(watched.snapshot.moves).toEqual(line.slice(0, 5));
    expect(watched.snapshot.version).toBeGreaterThan(played);
    const back = await tigerB.request('room:join', { roomId, seatToken: claimed.seatToken });
    expect(back).toMatchObject({ ok: true, role: 'tiger' });
    const from = watched.snapshot.version as number;

    // The tiger moves from B (judged on the room as A left it), then each side in turn, each on
    // the position it was shown, as a page moves: a move sent before its node delivered the
    // opponent's (heard through Redis) is judged on the store, and its event can reach that
    // node's sockets first (a gap the protocol's clients close by re-joining with `since`).
    const afterJoin = await publishes(redisUrl);
    const sides = [tigerB, goat, tigerB];
    let version = back.snapshot.version as number;
    for (const [i, side] of sides.entries()) {
      const ply = 5 + i;
      if (i > 0) await side.waitForVersion(version);
      const ack = await side.request('move', { roomId, move: line[ply], ply });
      expect(ack, `${line[ply]} at ${ply}`).toEqual({ ok: true, version: version + 1 });
      version = ack.version;
    }
    // Both nodes hold sockets of the room now: its events go through Redis.
    expect(await publishes(redisUrl)).toBeGreaterThan(afterJoin);

    // The spectator on B saw every event after its join, one version after the other.
    await watcher.waitForVersion(version);
    const seen = watcher.events.filter((e) => e.version > from);
    expect(seen.map((e) => e.version)).toEqual(seen.map((_, i) => from + 1 + i));
    expect(seen.at(-1)?.version).toBe(version);
    expect(seen.filter((e) => e.type === 'move').map((e) => e.move)).toEqual(line.slice(5, 8));
    await goat.waitForVersion(version);

    const onA = await getSnapshot(a.url, roomId);
    const onB = await getSnapshot(b.url, roomId);
    expect(onA.moves).toEqual(line.slice(0, 8));
    expect(onB.moves).toEqual(onA.moves);
    expect(onB.version).toBe(onA.version);
  });

  it("hears the room on a node where a seat's second socket joins (a second tab, a reconnect before the old socket is gone)", async () => {
    const shared = cluster();
    const [a, b] = await Promise.all([startNode(shared), startNode(shared)]);
    for (const n of [a, b]) fixture.defer(() => n.stop());
    const { roomId, goat, claimed } = await fixture.seat(a.url);
    // Both seats on A: A sends the room's events there only. The tiger's player opens the room
    // again on B: nothing a client sees changes (the tiger was connected already).
    const tigerB = await fixture.client(b.url);
    expect(await tigerB.request('room:join', { roomId, seatToken: claimed.seatToken })).toMatchObject({
      ok: true,
      role: 'tiger',
    });
    const move = BAGH_CHAL_GOAT_WIN[0];
    const ack = await goat.request('move', { roomId, move, ply: 0 });
    expect(ack).toMatchObject({ ok: true });
    expect(await tigerB.waitForVersion(ack.version, 5000)).toMatchObject({ type: 'move', move });
  });
});
