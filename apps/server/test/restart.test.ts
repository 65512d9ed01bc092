import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import type { RoomStorage } from '../src/storage/types.js';
import {
  type Client,
  createRoom,
  getSnapshot,
  movesSeen,
  perTest,
  playMoves,
  sleep,
  waitUntil,
} from './helpers.js';
import { BAGH_CHAL_TIGER_WIN } from './lines.js';

const fixture = perTest();

describe('nothing is lost when the server stops', () => {
  it('a game interrupted by a shutdown is finished after re-joining with the seat tokens', async () => {
    const dataDir = fixture.dataDir();
    const first = await fixture.server({ dataDir });
    const seated = await fixture.seat(first.url);
    const { created, roomId, goat } = seated;
    const tigerToken = seated.claimed.seatToken;
    const half = 5;
    await playMoves(seated, BAGH_CHAL_TIGER_WIN.slice(0, half));
    const before = await getSnapshot(first.url, roomId);
    await first.close();
    // The transport closes after the acks are flushed; the client hears of it a moment later.
    await waitUntil(() => !goat.socket.connected);

    const second = await fixture.server({ dataDir });
    const after = await getSnapshot(second.url, roomId);
    expect(after.moves).toEqual(BAGH_CHAL_TIGER_WIN.slice(0, half));
    expect(after.position).toBe(before.position);
    expect(after.version).toBeGreaterThanOrEqual(before.version);
    expect(after.seats).toEqual({
      tiger: { taken: true, connected: false },
      goat: { taken: true, connected: false },
    });

    const goat2 = await fixture.client(second.url);
    const tiger2 = await fixture.client(second.url);
    const watcher = await fixture.client(second.url);
    expect(await goat2.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      role: 'goat',
    });
    expect(await tiger2.request('room:join', { roomId, seatToken: tigerToken })).toMatchObject({
      role: 'tiger',
    });
    await watcher.request('room:join', { roomId });
    await playMoves({ roomId, goat: goat2, tiger: tiger2 }, BAGH_CHAL_TIGER_WIN.slice(half), half);
    const end = await getSnapshot(second.url, roomId);
    expect(end.result).toEqual({ winner: 'tiger', reason: 'captures' });
    expect(movesSeen(watcher)).toEqual(BAGH_CHAL_TIGER_WIN.slice(half));
  });

  it('a move is committed before it is broadcast, and survives a crash (no close)', async () => {
    const dataDir = fixture.dataDir();
    const first = await fixture.server({ dataDir });
    const seated = await fixture.seat(first.url);
    const { created, roomId, tiger } = seated;

    // An independent reader of the database file, asked the moment each broadcast arrives.
    const reader = new Database(join(dataDir, 'bagh.sqlite'), { readonly: true });
    fixture.defer(() => {
      reader.close();
    });
    const count = reader.prepare<[string], { n: number }>(
      "SELECT count(*) AS n FROM room_change WHERE room_id = ? AND kind = 'move'",
    );
    const seenInStore: number[] = [];
    tiger.socket.on('room:event', (event: { type: string; snapshot: { moves: string[] } }) => {
      if (event.type === 'move') seenInStore.push(count.get(roomId)!.n - event.snapshot.moves.length);
    });
    await playMoves(seated, BAGH_CHAL_TIGER_WIN.slice(0, 4));
    await tiger.waitFor((e) => e.snapshot.moves.length === 4);
    expect(seenInStore).toEqual([0, 0, 0, 0]);

    // Another process opening the same file while the first never shut down (as after kill -9).
    const second = await fixture.server({ dataDir });
    const recovered = await getSnapshot(second.url, roomId);
    expect(recovered.moves).toEqual(BAGH_CHAL_TIGER_WIN.slice(0, 4));
    const goat2 = await fixture.client(second.url);
    expect(await goat2.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      role: 'goat',
    });
    expect(await goat2.request('move', { roomId, move: BAGH_CHAL_TIGER_WIN[4], ply: 4 })).toMatchObject({
      ok: true,
    });
  });
});

/** A store whose next append waits until released: a command caught in flight. */
function holdingNextAppend(inner: RoomStorage) {
  let hold = false;
  let entered!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const storage = new Proxy(inner, {
    get(target, key) {
      if (key === 'append') {
        return async (...args: Parameters<RoomStorage['append']>) => {
          if (hold) {
            hold = false;
            entered();
            await released;
          }
          return target.append(...args);
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    storage,
    holdNext: () => {
      hold = true;
    },
    held,
    release,
  };
}

describe('a graceful stop', () => {
  it('acks the move in flight, records nobody as gone, and the clients reconnect by themselves', async () => {
    const dataDir = fixture.dataDir();
    const file = join(dataDir, 'bagh.sqlite');
    const store = holdingNextAppend(openSqliteStorage(file));
    const first = await fixture.server({ dataDir, options: { storage: store.storage } });
    const port = Number(new URL(first.url).port);
    const created = await createRoom(first.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const goat = await fixture.client(first.url, { reconnect: true });
    const tiger = await fixture.client(first.url, { reconnect: true });
    const watcher = await fixture.client(first.url, { reconnect: true });
    await goat.request('room:join', { roomId, seatToken: created.seatToken });
    const claimed = await tiger.request('seat:claim', { roomId, side: 'tiger' });
    await watcher.request('room:join', { roomId });
    const clients = { goat, tiger, watcher };
    await playMoves({ roomId, ...clients }, BAGH_CHAL_TIGER_WIN.slice(0, 2));
    const reasons = Object.values(clients).map((client) => disconnectReason(client));

    // The goat's move is being stored when the stop begins: it is finished and acked.
    store.holdNext();
    const acked = goat.request('move', { roomId, move: BAGH_CHAL_TIGER_WIN[2], ply: 2 });
    await store.held;
    const stopped = first.close();
    // A command that arrives once the stop has begun is refused, typed: it may be sent again.
    const late = await tiger.request('chat:send', { roomId, channel: 'players', text: 'too late' });
    expect(late).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    store.release();
    const ack = await acked;
    expect(ack).toMatchObject({ ok: true });
    await stopped;
    // Closed transports, which Socket.IO clients retry ("io server disconnect" they would not).
    expect(await Promise.all(reasons)).toEqual(['transport close', 'transport close', 'transport close']);

    // Nothing was stored after the move: nobody counts as gone, no countdown started.
    const reader = openSqliteStorage(file);
    const record = await reader.loadRoom(roomId);
    await reader.close();
    expect(record?.version).toBe(ack.version);

    // Started again on the same port: every client is back without being told to.
    const second = await fixture.server({ dataDir, port });
    await Promise.all(Object.values(clients).map((client) => connected(client)));
    const back = await goat.request('room:join', {
      roomId,
      seatToken: created.seatToken,
      since: ack.version,
    });
    expect(back).toMatchObject({ ok: true, role: 'goat' });
    expect(back.snapshot.moves).toEqual(BAGH_CHAL_TIGER_WIN.slice(0, 3));
    await tiger.request('room:join', { roomId, seatToken: claimed.seatToken, since: ack.version });
    await watcher.request('room:join', { roomId, since: ack.version });
    const next = await tiger.request('move', { roomId, move: BAGH_CHAL_TIGER_WIN[3], ply: 3 });
    expect(next).toMatchObject({ ok: true });
    await watcher.waitFor((event) => event.type === 'move' && event.move === BAGH_CHAL_TIGER_WIN[3]);
    expect((await getSnapshot(second.url, roomId)).seats).toEqual({
      tiger: { taken: true, connected: true },
      goat: { taken: true, connected: true },
    });
  });
});

describe('a timed game nobody comes back to after a restart', () => {
  it('is loaded at start: its flag ends it on time, and it is archived', async () => {
    const dataDir = fixture.dataDir();
    const first = await fixture.server({ dataDir });
    const seated = await fixture.seat(first.url, { clock: { initialMs: 2_000, incrementMs: 0 } });
    const { roomId, goat, tiger } = seated;
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    const tigerClockFrom = Date.now(); // the tiger's 2 s run from the goat's move
    goat.close();
    tiger.close();
    await first.close();

    const second = await fixture.server({ dataDir });
    await waitUntil(() => second.app.rooms.liveRooms === 1, 5_000); // loaded with nobody asking
    let games: { roomId: string; result: unknown; finishedAt: number }[] = [];
    for (const deadline = Date.now() + 10_000; games.length === 0 && Date.now() < deadline; ) {
      await sleep(500); // the archive answers an address 60 listings a minute
      games = ((await (await fetch(`${second.url}/api/games`)).json()) as { games: typeof games }).games;
    }
    expect(games).toEqual([
      expect.objectContaining({ roomId, result: { winner: 'goat', reason: 'timeout' } }),
    ]);
    // Dated when the time ran out (2 s after the goat's move), not when it was judged.
    expect(games[0]!.finishedAt).toBeLessThanOrEqual(tigerClockFrom + 2_000);
  });
});

describe('a stop held up by peers that never answer', () => {
  it('drops a half-sent request and a websocket that ignores its close, and ends', async () => {
    const srv = await fixture.server();
    const { port } = new URL(srv.url);
    // A request whose headers never end: Node's HTTP server waits for it (up to its timeouts).
    const halfRequest = await rawConnection(Number(port), 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
    // An upgraded websocket that reads nothing: its close frame is never answered.
    const deafSocket = await rawConnection(
      Number(port),
      'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n' +
        'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      (received) => received.includes('101 Switching Protocols'),
    );
    const ended = Promise.all([closed(halfRequest), closed(deafSocket)]);
    // Without a deadline of its own the stop waits for them (ws waits 30 s for a close's answer),
    // longer than this test's wait below and longer than server.ts's 20-s limit before exit(1).
    const stopped = await Promise.race([
      srv.close().then(() => 'stopped'),
      sleep(15_000).then(() => 'waiting'),
    ]);
    expect(stopped).toBe('stopped');
    await ended;
  });
});

/** A raw TCP connection that sent `text`, once `ready` (default: at once) holds for what came back. */
async function rawConnection(
  port: number,
  text: string,
  ready: (received: string) => boolean = () => true,
): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  fixture.defer(() => {
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => resolve());
  });
  socket.write(text);
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  await waitUntil(() => ready(received));
  return socket; // it never writes again: a close frame stays unanswered
}

const closed = (socket: Socket): Promise<void> =>
  socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));

/** The reason of the client's next disconnect. */
const disconnectReason = (client: Client): Promise<string> =>
  new Promise((resolve) => client.socket.once('disconnect', (reason) => resolve(reason)));

/** Resolves once the client is connected again. */
const connected = (client: Client): Promise<void> =>
  client.socket.connected
    ? Promise.resolve()
    : new Promise((resolve) => client.socket.once('connect', () => resolve()));

describe('re-joining with since', () => {
  it('replays a contiguous gap, or sends the snapshot alone when the gap is not held', async () => {
    const srv = await fixture.server({ options: { historySize: 4 } });
    const seated = await fixture.seat(srv.url);
    const { created, roomId } = seated;
    const version = await playMoves(seated, BAGH_CHAL_TIGER_WIN.slice(0, 8));
    const late = await fixture.client(srv.url);
    const recent = await late.request('room:join', {
      roomId,
      seatToken: created.seatToken,
      since: version - 2,
    });
    // The join itself adds no visible change (the goat is already connected), so no new version.
    expect(recent.snapshot.version).toBe(version);
    expect(recent.events.map((e: { version: number }) => e.version)).toEqual([version - 1, version]);
    expect(recent.events.map((e: { move: string }) => e.move)).toEqual(BAGH_CHAL_TIGER_WIN.slice(6, 8));

    const same = await late.request('room:join', { roomId, since: version });
    expect(same.events).toEqual([]);
    const old = await late.request('room:join', { roomId, since: 1 });
    expect(old.ok).toBe(true);
    expect(old.events).toBeUndefined();
    expect(old.snapshot.moves).toHaveLength(8);
    const future = await late.request('room:join', { roomId, since: version + 10 });
    expect(future.events).toBeUndefined();
  });
});

describe('presence', () => {
  it('disconnects and recovered connections are events; a recovered player can go on moving', async () => {
    const srv = await fixture.server();
    const created = await createRoom(srv.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const watcher = await fixture.client(srv.url);
    await watcher.request('room:join', { roomId });

    const goat = io(srv.url, { transports: ['websocket'], forceNew: true });
    fixture.defer(() => {
      goat.disconnect();
    });
    await new Promise<void>((resolve) => goat.once('connect', () => resolve()));
    await goat.timeout(5000).emitWithAck('room:join', { roomId, seatToken: created.seatToken });
    await watcher.waitFor((e) => e.type === 'presence' && e.snapshot.seats.goat.connected);

    // A player that has received a broadcast can have its session recovered by Socket.IO.
    expect(await goat.timeout(5000).emitWithAck('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({
      ok: true,
    });
    await watcher.waitFor((e) => e.type === 'move');
    await sleep(20);

    // Drop the transport: Socket.IO reconnects and recovers the session.
    goat.io.engine.close();
    const gone = await watcher.waitFor((e) => e.type === 'presence' && !e.snapshot.seats.goat.connected);
    await new Promise<void>((resolve) => goat.once('connect', () => resolve()));
    expect(goat.recovered).toBe(true);
    const back = await watcher.waitFor((e) => e.version > gone.version);
    expect(back).toMatchObject({ type: 'presence', snapshot: { seats: { goat: { connected: true } } } });

    const tiger = await fixture.client(srv.url);
    await tiger.request('seat:claim', { roomId, side: 'tiger' });
    expect(await tiger.request('move', { roomId, move: 'a1-b1', ply: 1 })).toMatchObject({ ok: true });
    expect(await goat.timeout(5000).emitWithAck('move', { roomId, move: 'G@d3', ply: 2 })).toMatchObject({
      ok: true,
    });
    expect((await getSnapshot(srv.url, roomId)).moves).toEqual(['G@c3', 'a1-b1', 'G@d3']);
  });
});
