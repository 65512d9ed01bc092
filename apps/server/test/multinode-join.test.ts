/**
 * The join race with several nodes: a node subscribes to a room's Redis channel when the room's
 * first socket there joins, and until Redis confirms it the events the other nodes publish are not
 * heard; and it unsubscribes when the last one leaves. Node B reaches Redis through a loopback
 * proxy that holds its SSUBSCRIBE and SUNSUBSCRIBE commands back (a slow link), so the races are
 * not left to luck. Run after `pnpm build`.
 */
import { connect, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createRoom, getSnapshot, listenForTest, perTest, sleep, waitUntil } from './helpers.js';
import { BAGH_CHAL_TIGER_WIN } from './lines.js';
import { type Shared, startNode, startShared, stopShared } from './multinode-helpers.js';

const fixture = perTest();

/** How long the proxy holds a chunk that subscribes to or unsubscribes from a channel. */
const HOLD_MS = 300;

interface SlowRedis {
  readonly url: string;
  /** Resolves once a client sent a chunk containing each of `texts` (in any case). */
  seen(...texts: string[]): Promise<void>;
  /** The same, once that chunk was passed on to Redis. */
  passed(...texts: string[]): Promise<void>;
}

/**
 * A TCP proxy to `target` that forwards every byte, in order, but holds back any chunk a client
 * sends with an SSUBSCRIBE or a SUNSUBSCRIBE in it (and what follows it on that connection).
 */
async function slowSubscriptions(target: URL, holdMs: number): Promise<SlowRedis> {
  const open = new Set<Socket>();
  type Watch = { texts: string[]; done: () => void };
  const watches = { seen: [] as Watch[], passed: [] as Watch[] };
  const notify = (list: Watch[], upper: string) => {
    for (const watch of list.filter((w) => w.texts.every((t) => upper.includes(t.toUpperCase())))) {
      list.splice(list.indexOf(watch), 1);
      watch.done();
    }
  };
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
      const upper = chunk.toString('latin1').toUpperCase();
      const held = upper.includes('SSUBSCRIBE') || upper.includes('SUNSUBSCRIBE');
      notify(watches.seen, upper);
      queue = queue.then(async () => {
        if (held) await sleep(holdMs);
        if (upstream.destroyed) return;
        await new Promise<void>((written) => upstream.write(chunk, () => written()));
        notify(watches.passed, upper);
      });
    });
  });
  const url = new URL(target);
  url.port = String(await listenForTest(fixture, server, open));
  return {
    url: url.toString(),
    seen: (...texts) => new Promise<void>((done) => watches.seen.push({ texts, done })),
    passed: (...texts) => new Promise<void>((done) => watches.passed.push({ texts, done })),
  };
}

/** Nodes A and B (B's subscriptions held back by a slow proxy) and a room made on A. */
async function slowNodeB() {
  const shared: Shared = await startShared();
  fixture.defer(() => stopShared(shared));
  const a = await startNode(shared);
  fixture.defer(() => a.stop());
  const slow = await slowSubscriptions(new URL(shared.redis.url), HOLD_MS);
  const b = await startNode(shared, { REDIS_URL: slow.url });
  fixture.defer(() => b.stop());
  const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'goat' });
  return { a, b, slow, created, roomId: created.roomId };
}

describe('a join on one node while another plays', () => {
  it('the joiner sees every move played right after its reply, and not its own join twice', async () => {
    const { a, b, slow, created, roomId } = await slowNodeB();
    const [goat, tiger] = await fixture.clients(a.url, a.url);
    expect(await goat.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
    });
    expect(await tiger.request('seat:claim', { roomId, side: 'tiger' })).toMatchObject({ ok: true });

    // Each round a spectator joins on B as the room's only socket there, and the next move is
    // played on A as soon as the join is answered. From the second round on, it joins while B's
    // unsubscribing from the room (its last socket there just left) is held back, and the move
    // is played once that has reached Redis.
    let left: Promise<void> | undefined;
    for (const [ply, move] of BAGH_CHAL_TIGER_WIN.slice(0, 4).entries()) {
      const watcher = await fixture.client(b.url);
      const joined = await watcher.request('room:join', { roomId });
      expect(joined, `round ${ply}`).toMatchObject({ ok: true, role: 'spectator' });
      const from: number = joined.snapshot.version;
      await left;
      const player = ply % 2 === 0 ? goat : tiger;
      const ack = await player.request('move', { roomId, move, ply });
      expect(ack, `${move} at ${ply}`).toMatchObject({ ok: true });
      const seen = await watcher.waitFor((e) => e.version === ack.version);
      expect(seen).toMatchObject({ type: 'move', move });
      // Every version after the reply's, in order; its own join (the reply's version) came in the
      // reply only. Another command's event may come before the reply (the page drops it).
      const versions = watcher.events.map((e) => e.version);
      expect(versions.filter((v) => v > from)).toEqual(
        Array.from({ length: ack.version - from }, (_, i) => from + 1 + i),
      );
      expect(versions).not.toContain(from);
      const unsubscribing = slow.seen('SUNSUBSCRIBE', `bagh#/#${roomId}#`);
      left = slow.passed('SUNSUBSCRIBE', `bagh#/#${roomId}#`);
      watcher.close();
      await unsubscribing;
    }
  });

  it("a spectator who joins on one node hears the spectators' chat sent on another right after its reply", async () => {
    const { a, b, created, roomId } = await slowNodeB();
    const [goat, talker] = await fixture.clients(a.url, a.url);
    expect(await goat.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
    });
    expect(await talker.request('room:join', { roomId })).toMatchObject({ ok: true, role: 'spectator' });

    // The watcher is the room's first socket on B: B's subscriptions to the room's channels are
    // held back, and the chat is sent the moment its join is answered.
    const watcher = await fixture.client(b.url);
    const heard: string[] = [];
    watcher.socket.on('chat:message', (message: { text: string }) => heard.push(message.text));
    expect(await watcher.request('room:join', { roomId })).toMatchObject({ ok: true, role: 'spectator' });
    expect(await talker.request('chat:send', { roomId, channel: 'spectators', text: 'hello' })).toMatchObject(
      {
        ok: true,
      },
    );
    await waitUntil(() => heard.length > 0, 2 * HOLD_MS + 1000).catch(() => undefined);
    expect(heard).toEqual(['hello']);

    // A player who joined on B with its seat token is not in the spectators' channel.
    const seated = await fixture.client(b.url);
    const goatHeard: string[] = [];
    seated.socket.on('chat:message', (message: { text: string }) => goatHeard.push(message.text));
    expect(await seated.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
      role: 'goat',
    });
    expect(await talker.request('chat:send', { roomId, channel: 'spectators', text: 'psst' })).toMatchObject({
      ok: true,
    });
    await waitUntil(() => heard.length > 1, 2000);
    expect(heard).toEqual(['hello', 'psst']);
    expect(goatHeard).toEqual([]);
  });

  it('a claim whose socket closes while the room channel is being subscribed takes no seat', async () => {
    const { a, b, slow, created, roomId } = await slowNodeB();
    const goat = await fixture.client(a.url);
    expect(await goat.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
    });
    const claimer = await fixture.client(b.url);
    const subscribing = slow.seen('SSUBSCRIBE', `bagh#/#${roomId}#`);
    const claim = claimer.request('seat:claim', { roomId, side: 'tiger' }).catch(() => 'no answer');
    await subscribing;
    claimer.close();
    expect(await claim).toBe('no answer');
    await sleep(1000); // B's subscription confirmed meanwhile: the claim would have been judged by now
    for (const node of [a, b]) {
      expect((await getSnapshot(node.url, roomId)).seats.tiger).toMatchObject({
        taken: false,
        connected: false,
      });
    }
    const tiger = await fixture.client(a.url);
    expect(await tiger.request('seat:claim', { roomId, side: 'tiger' })).toMatchObject({ ok: true });
  });
});
