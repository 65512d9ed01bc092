/**
 * The sharded adapter: a room's events reach only the nodes that hold a socket of it (one Redis
 * channel per room, subscribed while this node has a socket in it), so a third node does no work
 * for a game played on two. Read from Redis itself (PUBSUB SHARDNUMSUB). Run after `pnpm build`.
 */
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { createRoom, getSnapshot, perTest, sleep } from './helpers.js';
import { startNode, startRedis, useShared } from './multinode-helpers.js';

const fixture = perTest();
const cluster = useShared();

describe('a room on two of three nodes', () => {
  it('is heard by those two only, and by none once its sockets left', async () => {
    const shared = cluster();
    const nodes = await Promise.all([0, 1, 2].map(() => startNode(shared)));
    for (const n of nodes) fixture.defer(() => n.stop());
    const [a, b, c] = nodes as [(typeof nodes)[0], (typeof nodes)[0], (typeof nodes)[0]];
    const redis = createClient({ url: shared.redis.url });
    await redis.connect();
    fixture.defer(() => redis.close());
    const listeners = async (channel: string) => {
      const reply = (await redis.sendCommand(['PUBSUB', 'SHARDNUMSUB', channel])) as [string, number];
      return Number(reply[1]);
    };
    /** A leave does not wait for its unsubscribing: the count settles a moment later. */
    const settled = async (channel: string, count: number) => {
      for (let i = 0; i < 100 && (await listeners(channel)) !== count; i++) await sleep(50);
      return listeners(channel);
    };

    const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const [goat, tiger, watcher] = await fixture.clients(a.url, b.url, b.url);
    expect(await goat.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
    });
    expect(await tiger.request('seat:claim', { roomId, side: 'tiger' })).toMatchObject({ ok: true });
    expect(await watcher.request('room:join', { roomId })).toMatchObject({ ok: true });
    // Node C reads the room (it is live there too) but holds no socket of it.
    expect((await getSnapshot(c.url, roomId)).seats.tiger.connected).toBe(true);

    // A join or a claim is answered once its node's subscription is confirmed: no settling.
    expect(await listeners(`bagh#/#${roomId}#`)).toBe(2);
    expect(await listeners(`bagh#/#${roomId}:spectators#`)).toBe(1);
    // Every node still answers the cluster's requests (presence counts) on the shared channel.
    expect(await listeners('bagh#/#')).toBe(3);

    // A move made on A reaches the spectator on B.
    const ack = await goat.request('move', { roomId, move: 'G@b1', ply: 0 });
    expect(ack).toMatchObject({ ok: true });
    expect(await watcher.waitForVersion(ack.version)).toMatchObject({ type: 'move', move: 'G@b1' });

    for (const s of [tiger, watcher])
      expect(await s.request('room:leave', { roomId })).toMatchObject({ ok: true });
    expect(await settled(`bagh#/#${roomId}#`, 1)).toBe(1);
    expect(await settled(`bagh#/#${roomId}:spectators#`, 0)).toBe(0);
  });
});

describe("a room channel's messages", () => {
  it("are delivered from another node in either key order, never from this node's own uid, and survive garbage", async () => {
    const shared = cluster();
    const node = await startNode(shared);
    fixture.defer(() => node.stop());
    const redis = createClient({ url: shared.redis.url });
    await redis.connect();
    fixture.defer(() => redis.close());

    const { roomId } = await createRoom(node.url, { variant: 'bagh-chal', side: 'goat' });
    const [watcher] = await fixture.clients(node.url);
    expect(await watcher.request('room:join', { roomId })).toMatchObject({ ok: true });
    const probes: string[] = [];
    watcher.socket.on('probe', (from: string) => probes.push(from));

    // The node's uid names its answer channel, bagh#/#<16 hex>#.
    const channels = (await redis.sendCommand(['PUBSUB', 'SHARDCHANNELS', 'bagh#/#*'])) as string[];
    const uid = channels.map((channel) => /^bagh#\/#([0-9a-f]{16})#$/.exec(channel)?.[1]).find(Boolean);
    expect(uid).toBeDefined();
    const data = (from: string) => ({
      packet: { type: 2, data: ['probe', from], nsp: '/' },
      opts: { rooms: [roomId], except: [], flags: {} },
    });
    const channel = `bagh#/#${roomId}#`;
    // Its own uid first, as the node writes it: Redis echoes a node's messages back to it.
    await redis.sPublish(channel, JSON.stringify({ uid, nsp: '/', type: 3, data: data('own') }));
    // Not a message, a message without its data, then another node's, uid last (as
    // @socket.io/redis-adapter wrote them), in one MULTI so that the node reads them together:
    // the first two are dropped, not the third.
    await redis
      .multi()
      .sPublish(channel, 'null')
      .sPublish(channel, JSON.stringify({ uid: 'fedcba9876543210', nsp: '/', type: 3 }))
      .sPublish(channel, JSON.stringify({ type: 3, data: data('other'), uid: '0123456789abcdef', nsp: '/' }))
      .exec();

    for (let i = 0; i < 100 && probes.length === 0; i++) await sleep(20);
    // One subscription delivers in order: the own message would have come first.
    expect(probes).toEqual(['other']);
  });
});

describe("a room channel's subscription cut off by Redis going away", () => {
  it('is made again once Redis is back: the spectator who joined meanwhile hears the moves', async () => {
    const shared = cluster();
    let redis = await startRedis();
    fixture.defer(() => redis.stop());
    const env = { REDIS_URL: redis.url };
    const [a, b] = await Promise.all([startNode(shared, env), startNode(shared, env)]);
    for (const n of [a, b]) fixture.defer(() => n.stop());
    const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const [goat, tiger, watcher] = await fixture.clients(a.url, a.url, b.url);
    expect(await goat.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
    });
    expect(await tiger.request('seat:claim', { roomId, side: 'tiger' })).toMatchObject({ ok: true });

    // Redis holds every command, so B's SSUBSCRIBE for the spectator's room is under way when
    // the connection drops: node-redis renews only the subscriptions Redis had confirmed.
    const pauser = createClient({ url: redis.url });
    await pauser.connect();
    await pauser.sendCommand(['CLIENT', 'PAUSE', '5000', 'ALL']);
    const joined = watcher.request('room:join', { roomId });
    await sleep(300);
    pauser.destroy();
    await redis.stop();
    redis = await startRedis({ port: redis.port });
    expect(await joined).toMatchObject({ ok: true, role: 'spectator' });

    const probe = createClient({ url: redis.url });
    await probe.connect();
    fixture.defer(() => probe.close());
    const listeners = async () =>
      Number(
        ((await probe.sendCommand(['PUBSUB', 'SHARDNUMSUB', `bagh#/#${roomId}#`])) as [string, number])[1],
      );
    for (let i = 0; i < 200 && (await listeners()) < 2; i++) await sleep(50);
    expect(await listeners()).toBe(2);
    const ack = await goat.request('move', { roomId, move: 'G@b1', ply: 0 });
    expect(ack).toMatchObject({ ok: true });
    expect(await watcher.waitForVersion(ack.version, 5000)).toMatchObject({ type: 'move', move: 'G@b1' });
  });
});
