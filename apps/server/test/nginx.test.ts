/**
 * The deployment's routing, for real: Debian's nginx with deploy/nginx.conf in front of two nodes
 * on PostgreSQL and Redis. A room page's socket carries `?room=`, so every socket of a room lands
 * on one node (one listener on the room's Redis channel, no SPUBLISH for its moves); a node killed
 * moves only its own rooms, whose players reconnect through nginx to the other node and play on.
 * Run after `pnpm build`.
 */
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { startLocalNginx } from '../support/local-nginx.js';
import { type Client, createRoom, getSnapshot, perTest, playMoves, waitUntil } from './helpers.js';
import { BAGH_CHAL_TIGER_WIN } from './lines.js';
import { startNode, useShared } from './multinode-helpers.js';

const fixture = perTest();
const cluster = useShared();

const ROOMS = 6;
const METRICS_TOKEN = 'nginx-test-metrics-token';
const BEFORE_KILL = 4;

/** The node's `bagh_connected_sockets` gauge, read from its /metrics. */
async function socketsOn(url: string): Promise<number> {
  const reply = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await reply.text();
  const line = text.split('\n').find((l) => l.startsWith('bagh_connected_sockets '));
  if (!line) throw new Error(`no bagh_connected_sockets in ${url}/metrics`);
  return Number(line.split(' ')[1]);
}

interface RoutedRoom {
  readonly roomId: string;
  readonly goat: Client;
  readonly tiger: Client;
  readonly watcher: Client;
  readonly tokens: { readonly goat: string; readonly tiger: string };
  /** The index of the node its sockets landed on. */
  readonly owner: number;
}

describe("the deployment's nginx in front of two nodes", () => {
  it("routes each room's sockets to one node, and a dead node's rooms to the other", async () => {
    const shared = cluster();
    const nodes = await Promise.all([0, 1].map(() => startNode(shared, { METRICS_TOKEN })));
    for (const n of nodes) fixture.defer(() => n.stop());
    const balancer = await startLocalNginx(nodes.map((n) => n.url));
    fixture.defer(() => balancer.stop());
    const redis = createClient({ url: shared.redis.url });
    await redis.connect();
    fixture.defer(() => redis.close());
    const listeners = async (roomId: string) =>
      Number(
        ((await redis.sendCommand(['PUBSUB', 'SHARDNUMSUB', `bagh#/#${roomId}#`])) as [string, number])[1],
      );
    const publishes = async () =>
      Number(/cmdstat_spublish:calls=(\d+)/.exec(await redis.info('commandstats'))?.[1] ?? 0);

    const rooms: RoutedRoom[] = [];
    // ROOMS at least, and more until each node owns one (the hash may put the first ones on one).
    const bothOwn = () => new Set(rooms.map((r) => r.owner)).size === 2;
    for (let i = 0; i < ROOMS || (!bothOwn() && i < 4 * ROOMS); i++) {
      const before = await Promise.all(nodes.map((n) => socketsOn(n.url)));
      const created = await createRoom(balancer.url, { variant: 'bagh-chal', side: 'goat' });
      const { roomId } = created;
      const page = { query: { room: roomId }, reconnect: true };
      const [goat, tiger, watcher] = [
        await fixture.client(balancer.url, page),
        await fixture.client(balancer.url, page),
        await fixture.client(balancer.url, page),
      ];
      expect(await goat.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
        ok: true,
      });
      const claimed = await tiger.request('seat:claim', { roomId, side: 'tiger' });
      expect(claimed).toMatchObject({ ok: true });
      expect(await watcher.request('room:join', { roomId })).toMatchObject({ role: 'spectator' });
      const after = await Promise.all(nodes.map((n) => socketsOn(n.url)));
      const gained = after.map((count, n) => count - (before[n] ?? 0));
      // All three sockets of the room on one node, none on the other.
      expect([...gained].sort()).toEqual([0, 3]);
      rooms.push({
        roomId,
        goat,
        tiger,
        watcher,
        tokens: { goat: created.seatToken, tiger: claimed.seatToken },
        owner: gained.indexOf(3),
      });
      expect(await listeners(roomId)).toBe(1);
    }

    // Played through nginx's WebSockets, broadcast by the owner alone: Redis relays none of it.
    const published = await publishes();
    for (const room of rooms) {
      const version = await playMoves(room, BAGH_CHAL_TIGER_WIN.slice(0, BEFORE_KILL));
      await room.watcher.waitForVersion(version);
    }
    expect(await publishes()).toBe(published);

    const victim = rooms[0]!.owner;
    const moved = rooms.filter((r) => r.owner === victim);
    const stayed = rooms.filter((r) => r.owner !== victim);
    expect(stayed.length).toBeGreaterThan(0);
    const socketIds = stayed.map((r) => r.goat.socket.id);
    await nodes[victim]!.kill();
    await waitUntil(() => moved.every((r) => !r.goat.socket.connected));
    // nginx skips the dead node (proxy_next_upstream); the pages reconnect, re-join and play on.
    await waitUntil(() => moved.every((r) => r.goat.socket.connected && r.tiger.socket.connected));
    const survivor = nodes[1 - victim]!;
    for (const room of moved) {
      const { roomId } = room;
      expect(await room.goat.request('room:join', { roomId, seatToken: room.tokens.goat })).toMatchObject({
        role: 'goat',
        snapshot: { moves: BAGH_CHAL_TIGER_WIN.slice(0, BEFORE_KILL) },
      });
      expect(await room.tiger.request('room:join', { roomId, seatToken: room.tokens.tiger })).toMatchObject({
        role: 'tiger',
      });
    }
    for (const room of [...moved, ...stayed]) {
      await playMoves(room, BAGH_CHAL_TIGER_WIN.slice(BEFORE_KILL), BEFORE_KILL);
      expect(await getSnapshot(survivor.url, room.roomId)).toMatchObject({
        moves: BAGH_CHAL_TIGER_WIN,
        result: { winner: 'tiger', reason: 'captures' },
      });
    }
    // The rooms that were on the survivor kept their sockets (a reconnect would get a new id).
    expect(stayed.map((r) => r.goat.socket.id)).toEqual(socketIds);
  });
});
