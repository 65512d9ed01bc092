import { join } from 'node:path';
import Database from 'better-sqlite3';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Client,
  createRoom,
  getSnapshot,
  removeDir,
  sleep,
  startServer,
  type TestServer,
  tempDir,
} from './helpers.js';
import { BAGH_CHAL_TIGER_WIN } from './lines.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function server(dataDir: string, historySize?: number): Promise<TestServer> {
  const started = await startServer({ dataDir, ...(historySize ? { options: { historySize } } : {}) });
  cleanup.push(() => started.close());
  return started;
}
async function client(url: string): Promise<Client> {
  const c = await Client.connect(url);
  cleanup.push(() => c.close());
  return c;
}

describe('nothing is lost when the server stops', () => {
  it('a game interrupted by a shutdown is finished after re-joining with the seat tokens', async () => {
    const dataDir = tempDir();
    cleanup.push(() => removeDir(dataDir));
    const first = await server(dataDir);
    const created = await createRoom(first.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const goat = await client(first.url);
    const tiger = await client(first.url);
    await goat.request('room:join', { roomId, seatToken: created.seatToken });
    const { seatToken: tigerToken } = await tiger.request('seat:claim', { roomId, side: 'tiger' });
    const half = 5;
    for (let ply = 0; ply < half; ply++) {
      const player = ply % 2 === 0 ? goat : tiger;
      expect(await player.request('move', { roomId, move: BAGH_CHAL_TIGER_WIN[ply], ply })).toMatchObject({
        ok: true,
      });
    }
    const before = await getSnapshot(first.url, roomId);
    await first.close();
    expect(goat.socket.connected).toBe(false);

    const second = await server(dataDir);
    const after = await getSnapshot(second.url, roomId);
    expect(after.moves).toEqual(BAGH_CHAL_TIGER_WIN.slice(0, half));
    expect(after.position).toBe(before.position);
    expect(after.version).toBeGreaterThanOrEqual(before.version);
    expect(after.seats).toEqual({
      tiger: { taken: true, connected: false },
      goat: { taken: true, connected: false },
    });

    const goat2 = await client(second.url);
    const tiger2 = await client(second.url);
    const watcher = await client(second.url);
    expect(await goat2.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      role: 'goat',
    });
    expect(await tiger2.request('room:join', { roomId, seatToken: tigerToken })).toMatchObject({
      role: 'tiger',
    });
    await watcher.request('room:join', { roomId });
    for (let ply = half; ply < BAGH_CHAL_TIGER_WIN.length; ply++) {
      const player = ply % 2 === 0 ? goat2 : tiger2;
      expect(await player.request('move', { roomId, move: BAGH_CHAL_TIGER_WIN[ply], ply })).toMatchObject({
        ok: true,
      });
    }
    const end = await getSnapshot(second.url, roomId);
    expect(end.result).toEqual({ winner: 'tiger', reason: 'captures' });
    expect(watcher.events.filter((e) => e.type === 'move').map((e) => e.move)).toEqual(
      BAGH_CHAL_TIGER_WIN.slice(half),
    );
  });

  it('a move is committed before it is broadcast, and survives a crash (no close)', async () => {
    const dataDir = tempDir();
    cleanup.push(() => removeDir(dataDir));
    const first = await server(dataDir);
    const created = await createRoom(first.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const goat = await client(first.url);
    const tiger = await client(first.url);
    await goat.request('room:join', { roomId, seatToken: created.seatToken });
    await tiger.request('seat:claim', { roomId, side: 'tiger' });

    // An independent reader of the database file, asked the moment each broadcast arrives.
    const reader = new Database(join(dataDir, 'bagh.sqlite'), { readonly: true });
    cleanup.push(() => {
      reader.close();
    });
    const count = reader.prepare<[string], { n: number }>(
      "SELECT count(*) AS n FROM room_change WHERE room_id = ? AND kind = 'move'",
    );
    const seenInStore: number[] = [];
    tiger.socket.on('room:event', (event: { type: string; snapshot: { moves: string[] } }) => {
      if (event.type === 'move') seenInStore.push(count.get(roomId)!.n - event.snapshot.moves.length);
    });
    for (let ply = 0; ply < 4; ply++) {
      const player = ply % 2 === 0 ? goat : tiger;
      expect(await player.request('move', { roomId, move: BAGH_CHAL_TIGER_WIN[ply], ply })).toMatchObject({
        ok: true,
      });
    }
    await tiger.waitFor((e) => e.snapshot.moves.length === 4);
    expect(seenInStore).toEqual([0, 0, 0, 0]);

    // Another process opening the same file while the first never shut down (as after kill -9).
    const second = await server(dataDir);
    const recovered = await getSnapshot(second.url, roomId);
    expect(recovered.moves).toEqual(BAGH_CHAL_TIGER_WIN.slice(0, 4));
    const goat2 = await client(second.url);
    expect(await goat2.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      role: 'goat',
    });
    expect(await goat2.request('move', { roomId, move: BAGH_CHAL_TIGER_WIN[4], ply: 4 })).toMatchObject({
      ok: true,
    });
  });
});

describe('re-joining with since', () => {
  it('replays a contiguous gap, or sends the snapshot alone when the gap is not held', async () => {
    const dataDir = tempDir();
    cleanup.push(() => removeDir(dataDir));
    const srv = await server(dataDir, 4);
    const created = await createRoom(srv.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const goat = await client(srv.url);
    const tiger = await client(srv.url);
    await goat.request('room:join', { roomId, seatToken: created.seatToken });
    await tiger.request('seat:claim', { roomId, side: 'tiger' });
    let version = 0;
    for (let ply = 0; ply < 8; ply++) {
      const player = ply % 2 === 0 ? goat : tiger;
      version = (await player.request('move', { roomId, move: BAGH_CHAL_TIGER_WIN[ply], ply })).version;
    }
    const late = await client(srv.url);
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
    const dataDir = tempDir();
    cleanup.push(() => removeDir(dataDir));
    const srv = await server(dataDir);
    const created = await createRoom(srv.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const watcher = await client(srv.url);
    await watcher.request('room:join', { roomId });

    const goat = io(srv.url, { transports: ['websocket'], forceNew: true });
    cleanup.push(() => {
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

    const tiger = await client(srv.url);
    await tiger.request('seat:claim', { roomId, side: 'tiger' });
    expect(await tiger.request('move', { roomId, move: 'a1-b1', ply: 1 })).toMatchObject({ ok: true });
    expect(await goat.timeout(5000).emitWithAck('move', { roomId, move: 'G@d3', ply: 2 })).toMatchObject({
      ok: true,
    });
    expect((await getSnapshot(srv.url, roomId)).moves).toEqual(['G@c3', 'a1-b1', 'G@d3']);
  });
});
