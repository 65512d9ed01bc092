/**
 * A rolling restart of a two-node cluster (`node dist/server.js` ×2 on one PostgreSQL and one
 * redis-server) behind a TCP balancer on loopback, as a deploy does it: stop A (SIGTERM), start A,
 * stop B, start B, while rooms play through the balancer with clients that reconnect by
 * themselves. Every acknowledged move is kept, no move is played twice, every client ends back in
 * its room. Run after `pnpm build`.
 */
import { connect, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PlayingRooms } from '../bench/playing-rooms.js';
import { listenForTest, perTest, sleep, waitUntil } from './helpers.js';
import { freePort, type NodeProcess, startNode, startShared, stopShared } from './multinode-helpers.js';

const fixture = perTest();
/** A safety bound for a loaded machine. */
const LONG_MS = 60_000;

/** A TCP balancer on 127.0.0.1: each connection goes to the next of `ports` that accepts it. */
async function balancer(ports: readonly number[]): Promise<string> {
  let next = 0;
  const open = new Set<Socket>();
  const server = createServer((downstream) => {
    open.add(downstream);
    downstream.on('close', () => open.delete(downstream));
    downstream.pause();
    const first = next++ % ports.length;
    const attempt = (tried: number) => {
      if (tried === ports.length) {
        downstream.destroy();
        return;
      }
      const upstream: Socket = connect(ports[(first + tried) % ports.length]!, '127.0.0.1');
      upstream.once('error', () => attempt(tried + 1));
      upstream.once('connect', () => {
        upstream.removeAllListeners('error');
        const close = () => {
          upstream.destroy();
          downstream.destroy();
        };
        for (const end of [upstream, downstream]) end.on('error', close).on('close', close);
        downstream.pipe(upstream).pipe(downstream);
        downstream.resume();
      });
    };
    attempt(0);
  });
  return `http://127.0.0.1:${await listenForTest(fixture, server, open)}`;
}

describe('a rolling restart of two nodes', () => {
  it('loses no acknowledged move and no client, and plays no move twice', { timeout: 240_000 }, async () => {
    const shared = await startShared();
    fixture.defer(() => stopShared(shared));
    const ports = [await freePort(), await freePort()];
    const start = (port: number) =>
      startNode(shared, {
        PORT: String(port),
        // Every client of the test comes from one address.
        ROOMS_PER_ADDRESS_PER_MINUTE: '100000',
        MAX_SOCKETS_PER_ADDRESS: '100000',
      });
    const nodes: NodeProcess[] = [await start(ports[0]!), await start(ports[1]!)];
    fixture.defer(() => Promise.all(nodes.map((node) => node.stop())).then(() => undefined));
    const url = await balancer(ports);

    // A move a second per room: a random game lasts about 50, longer than the restarts even on a
    // loaded machine, so the rooms are still playing after them.
    const playing = await PlayingRooms.open(url, 12, 1, { delayMs: 100, maxDelayMs: 1000 });
    fixture.defer(() => playing.close());
    const ackedBefore = () => [...playing.rooms].reduce((n, room) => n + room.acked.size, 0);
    // Counted, not timed: a loaded machine plays slower, never differently.
    await waitUntil(() => ackedBefore() >= 24, LONG_MS);
    for (const i of [0, 1]) {
      await nodes[i]!.stop('SIGTERM');
      await sleep(1000); // the other node serves everyone meanwhile
      nodes[i] = await start(ports[i]!);
      await sleep(1000);
    }
    const afterRestarts = ackedBefore();
    expect(await playing.allBack(LONG_MS)).toBe(true);
    // And the games go on (those not over yet).
    const over = () => playing.rooms.every((room) => room.game.outcome !== null);
    await waitUntil(() => ackedBefore() >= afterRestarts + 12 || over(), LONG_MS);
    await playing.stopPlaying();

    const verdict = await playing.verify(url);
    expect(verdict.acked).toBeGreaterThanOrEqual(36);
    expect(verdict).toMatchObject({ lost: 0, unsent: 0 });
  });
});
