/**
 * Presence and the live list across two nodes (`node dist/server.js` ×2 on one real
 * redis-server and PostgreSQL): a player on each node, spectators on both. Run after `pnpm build`.
 */
import type { LiveReply, Snapshot } from '@bagh/protocol';
import { describe, expect, it } from 'vitest';
import { type Client, createRoom, expectError, getSnapshot, perTest, sleep, waitUntil } from './helpers.js';
import { clusterNodes } from './multinode-helpers.js';

const GRACE_MS = 1000;

const fixture = perTest();
const node = clusterNodes(fixture, { ABANDON_GRACE_MS: String(GRACE_MS) });

async function live(url: string): Promise<LiveReply> {
  const response = await fetch(`${url}/api/live`);
  expect(response.status).toBe(200);
  return (await response.json()) as LiveReply;
}

const presenceOf = (snapshot: Snapshot) => ({
  tiger: snapshot.seats.tiger.connected,
  goat: snapshot.seats.goat.connected,
  spectators: snapshot.spectators,
});

/**
 * Two nodes that look at the cluster every 300 ms; a room with its goat on A and its tiger on B,
 * once B has counted both nodes.
 */
async function goatOnATigerOnB() {
  const [a, b] = await Promise.all([
    node({ PRESENCE_RECOUNT_MS: '300' }),
    node({ PRESENCE_RECOUNT_MS: '300' }),
  ]);
  const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'goat' });
  const { roomId } = created;
  const [goat, tiger] = await fixture.clients(a.url, b.url);
  await goat.request('room:join', { roomId, seatToken: created.seatToken });
  const claimed = await tiger.request('seat:claim', { roomId, side: 'tiger' });
  expect(presenceOf(claimed.snapshot)).toMatchObject({ tiger: true, goat: true });
  await sleep(1000); // B has counted two nodes since A started
  return { a, b, roomId, tiger };
}

describe('presence across two nodes', () => {
  it('counts every node: both seats connected, all spectators; no abandonment claim against a player on the other node', async () => {
    const [a, b] = await Promise.all([node(), node()]);
    const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'tiger', public: true });
    const { roomId } = created;

    // The live list is the cluster's: a public room created on A is listed by B.
    expect((await live(b.url)).rooms.map((r) => r.roomId)).toContain(roomId);

    const [tiger, goat, watchA, watchB] = await fixture.clients(a.url, b.url, a.url, b.url);
    expect(await tiger.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
      role: 'tiger',
    });
    expect(await watchA.request('room:join', { roomId })).toMatchObject({ ok: true, role: 'spectator' });
    const claimed = await goat.request('seat:claim', { roomId, side: 'goat' });
    expect(claimed).toMatchObject({ ok: true });
    // The goat's own snapshot, made on B, already sees the tiger and the spectator on A.
    expect(presenceOf(claimed.snapshot)).toEqual({ tiger: true, goat: true, spectators: 1 });
    const joinedB = await watchB.request('room:join', { roomId });
    expect(presenceOf(joinedB.snapshot)).toEqual({ tiger: true, goat: true, spectators: 2 });
    const everyone = { tiger: true, goat: true, spectators: 2 };
    const settled = joinedB.snapshot.version as number;
    // B's spectator has its own join in its reply only, not also as an event.
    const seenA = await watchA.waitForVersion(settled);
    expect(presenceOf(seenA.snapshot)).toEqual(everyone);
    for (const url of [a.url, b.url]) expect(presenceOf(await getSnapshot(url, roomId))).toEqual(everyone);

    // A move on each node: every snapshot, on both nodes, shows the same presence.
    const g = await goat.request('move', { roomId, move: 'G@c3', ply: 0 });
    expect(g).toMatchObject({ ok: true });
    const t = await tiger.request('move', { roomId, move: 'a1-b1', ply: 1 });
    expect(t).toMatchObject({ ok: true });
    // Every event reaches every watcher (B's spectator from the one after its join's); one from
    // the other node may come after a later local one.
    const firstOf = (watcher: Client) => (watcher === watchB ? settled + 1 : settled);
    const between = (watcher: Client) =>
      watcher.events.filter((e) => e.version >= firstOf(watcher) && e.version <= t.version);
    for (const watcher of [watchA, watchB]) {
      const first = firstOf(watcher);
      const expected = Array.from({ length: t.version - first + 1 }, (_, i) => first + i);
      await waitUntil(() => between(watcher).length >= expected.length, 10_000);
      expect(
        between(watcher)
          .map((e) => e.version)
          .sort((x, y) => x - y),
      ).toEqual(expected);
      for (const event of between(watcher)) expect(presenceOf(event.snapshot)).toEqual(everyone);
    }
    for (const url of [a.url, b.url]) {
      const snapshot = await getSnapshot(url, roomId);
      expect(presenceOf(snapshot)).toEqual(everyone);
      expect(snapshot.abandon).toBeNull();
    }
    expect((await live(b.url)).rooms.find((r) => r.roomId === roomId)).toMatchObject({
      moves: 2,
      spectators: 2,
      seats: { tiger: { connected: true }, goat: { connected: true } },
    });

    // The tiger is connected on A: the goat on B has nothing to claim, however long it waits.
    expectError(await goat.request('abandon:claim', { roomId, outcome: 'win' }), 'NOT_ALLOWED');
    await sleep(GRACE_MS + 300);
    expectError(await goat.request('abandon:claim', { roomId, outcome: 'win' }), 'NOT_ALLOWED');
    expect(presenceOf(await getSnapshot(b.url, roomId))).toEqual(everyone);

    // The tiger's socket goes: both nodes see it gone, the same goneSince; after the grace, the claim works.
    tiger.close();
    const goneB = await watchB.waitFor((e) => e.snapshot.seats.tiger.connected === false);
    const goneA = await watchA.waitFor((e) => e.snapshot.seats.tiger.connected === false);
    expect(goneA.version).toBe(goneB.version);
    expect(goneB.snapshot.abandon).toMatchObject({ side: 'tiger', claimable: false });
    expect(goneA.snapshot.abandon).toEqual(goneB.snapshot.abandon);
    expect(presenceOf(goneB.snapshot)).toEqual({ tiger: false, goat: true, spectators: 2 });
    expectError(await goat.request('abandon:claim', { roomId, outcome: 'win' }), 'NOT_ALLOWED');
    const claimable = await watchB.waitFor((e) => e.snapshot.abandon?.claimable === true, GRACE_MS + 4000);
    expect(claimable.snapshot.abandon?.side).toBe('tiger');
    const won = await goat.request('abandon:claim', { roomId, outcome: 'win' });
    expect(won).toMatchObject({ ok: true });
    const end = await watchA.waitFor((e) => e.snapshot.result !== null);
    expect(end.snapshot.result).toEqual({ winner: 'goat', reason: 'abandoned' });

    // A room with a result leaves the live list, on every node (the index is updated after the ack).
    for (const url of [a.url, b.url]) {
      await expect.poll(async () => (await live(url)).rooms.map((r) => r.roomId)).not.toContain(roomId);
    }
  });

  it("shows a crashed node's player as gone on the other node, whose player may then claim the game", async () => {
    const { a, b, roomId, tiger } = await goatOnATigerOnB();
    await a.kill(); // SIGKILL: A says nothing of its goat's socket
    // B counts again by itself: the goat shows as gone, its grace runs, and the tiger may claim.
    const gone = await tiger.waitFor((e) => e.snapshot.seats.goat.connected === false, 20_000);
    expect(gone.snapshot.abandon).toMatchObject({ side: 'goat' });
    // A store call that timed out under load backs the grace timer off (0.5 s, doubling): patience.
    await tiger.waitFor((e) => e.snapshot.abandon?.claimable === true, 30_000);
    const claim = await tiger.request('abandon:claim', { roomId, outcome: 'win' });
    expect(claim).toMatchObject({ ok: true });
    expect((await getSnapshot(b.url, roomId)).result).toEqual({ winner: 'tiger', reason: 'abandoned' });
  });

  it("shows the player of a node that crashed within the other's first interval as gone", async () => {
    // B looks at the cluster as it starts, then only every 8 s: A crashes before B's second look
    // (about a second in; a box so slow that it takes 8 would see it through the ordinary look
    // instead, and the test would check nothing new, not fail).
    const a = await node();
    const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const [goat] = await fixture.clients(a.url);
    await goat.request('room:join', { roomId, seatToken: created.seatToken });
    const b = await node({ PRESENCE_RECOUNT_MS: '8000' });
    const [tiger] = await fixture.clients(b.url);
    const claimed = await tiger.request('seat:claim', { roomId, side: 'tiger' });
    expect(presenceOf(claimed.snapshot)).toMatchObject({ tiger: true, goat: true });
    await a.kill();
    const gone = await tiger.waitFor((e) => e.snapshot.seats.goat.connected === false, 20_000);
    expect(gone.snapshot.abandon).toMatchObject({ side: 'goat' });
  });

  it('shows the player of a node that crashed and came back between two looks as gone', async () => {
    const { a, b, roomId, tiger } = await goatOnATigerOnB();
    // B is frozen while A crashes and another node starts: when B looks again there are two
    // nodes, as before, and the goat's socket is nowhere.
    const paused = b.child.pid!;
    process.kill(paused, 'SIGSTOP');
    try {
      await a.kill();
      await node();
    } finally {
      process.kill(paused, 'SIGCONT');
    }
    const gone = await tiger.waitFor((e) => e.snapshot.seats.goat.connected === false, 20_000);
    expect(gone.snapshot.abandon).toMatchObject({ side: 'goat' });
    expect(presenceOf(await getSnapshot(b.url, roomId))).toMatchObject({ tiger: true, goat: false });
  });
});
