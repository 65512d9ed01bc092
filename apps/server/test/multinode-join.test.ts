/**
 * The join race with several nodes: a node subscribes to a room's Redis channel when the room's
 * first socket there joins, and until Redis confirms it the events the other nodes publish are not
 * heard. Node B reaches Redis through a loopback proxy that holds its SSUBSCRIBE commands back (a
 * slow link), so the race is not left to luck. Run after `pnpm build`.
 */
import { connect, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createRoom, perTest, sleep } from './helpers.js';
import { BAGH_CHAL_TIGER_WIN } from './lines.js';
import { type Shared, startNode, startShared, stopShared } from './multinode-helpers.js';

const fixture = perTest();

/** How long the proxy holds a chunk that subscribes to a channel. */
const SUBSCRIBE_DELAY_MS = 300;

/**
 * A TCP proxy to `target` that forwards every byte, in order, but holds back any chunk a client
 * sends with an SSUBSCRIBE in it (and what follows it on that connection) for `delayMs`.
 */
async function slowSubscribes(target: URL, delayMs: number): Promise<string> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const end of [client, upstream]) {
      open.add(end);
      end.on('close', () => {
        open.delete(end);
        client.destroy();
        upstream.destroy();
      });
      end.on('error', () => end.destroy());
    }
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    let queue = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      const held = chunk.toString('latin1').toUpperCase().includes('SSUBSCRIBE');
      queue = queue.then(async () => {
        if (held) await sleep(delayMs);
        if (!upstream.destroyed) upstream.write(chunk);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture.defer(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  );
  const url = new URL(target);
  url.port = String((server.address() as { port: number }).port);
  return url.toString();
}

describe('a join on one node while another plays', () => {
  it('the joiner sees every move played right after its reply, and not its own join twice', async () => {
    const shared: Shared = await startShared();
    fixture.defer(() => stopShared(shared));
    const a = await startNode(shared);
    fixture.defer(() => a.stop());
    const slowRedis = await slowSubscribes(new URL(shared.redis.url), SUBSCRIBE_DELAY_MS);
    const b = await startNode(shared, { REDIS_URL: slowRedis });
    fixture.defer(() => b.stop());

    const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const [goat, tiger] = await fixture.clients(a.url, a.url);
    expect(await goat.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
    });
    expect(await tiger.request('seat:claim', { roomId, side: 'tiger' })).toMatchObject({ ok: true });

    // Each round a spectator joins on B as the room's only socket there (B subscribes anew), and
    // the next move is played on A as soon as the join is answered.
    for (const [ply, move] of BAGH_CHAL_TIGER_WIN.slice(0, 4).entries()) {
      const watcher = await fixture.client(b.url);
      const joined = await watcher.request('room:join', { roomId });
      expect(joined, `round ${ply}`).toMatchObject({ ok: true, role: 'spectator' });
      const from: number = joined.snapshot.version;
      const player = ply % 2 === 0 ? goat : tiger;
      const ack = await player.request('move', { roomId, move, ply });
      expect(ack, `${move} at ${ply}`).toMatchObject({ ok: true });
      const seen = await watcher.waitFor((e) => e.version === ack.version);
      expect(seen).toMatchObject({ type: 'move', move });
      // Every version after the reply's, in order, and nothing at or before it: its own join came
      // in the reply, not also as an event.
      const versions = watcher.events.map((e) => e.version);
      expect(versions).toEqual(Array.from({ length: ack.version - from }, (_, i) => from + 1 + i));
      watcher.close();
      // B drops the room's channel once its last socket there is gone (the next join subscribes again).
      await player.waitFor((e) => e.type === 'presence' && e.version > ack.version);
    }
  });
});
