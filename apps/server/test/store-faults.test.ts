/**
 * Real stores failing under a running game: SQLite on a small tmpfs that fills up (mounted here,
 * as root) or write-locked by another connection, PostgreSQL stopped and started again,
 * PostgreSQL frozen, and Redis (which keeps no room) stopped and started again empty under two
 * nodes. While faulted every command gets a typed ack quickly, /healthz says 503 quickly, the
 * server stays calm (little CPU, few log lines), and once the store is back everything works
 * again without a restart; a move the store refused is timed when it was first sent.
 */
import { join } from 'node:path';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { fillDisk, mountTmpfs } from './full-disk.js';
import {
  Client,
  createRoom,
  getSnapshot,
  type LogLine,
  perTest,
  playMoves,
  recordingLogger,
  sleep,
  waitUntil,
} from './helpers.js';
import { BAGH_CHAL_TIGER_WIN } from './lines.js';
import { startPostgres, startRedis } from './multinode-helpers.js';
import { lockSqlite } from './sqlite-lock.js';

const fixture = perTest();

/** The last lines a recorded log holds, for a failed assertion's message. */
const tail = (lines: readonly LogLine[]): string =>
  lines
    .slice(-20)
    .map((line) => JSON.stringify(line))
    .join('\n');

/** The ack and how long it took. */
async function timed(client: Client, event: string, payload: unknown): Promise<{ ack: unknown; ms: number }> {
  const started = performance.now();
  const ack = await client.request(event, payload);
  return { ack, ms: performance.now() - started };
}

async function health(url: string): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) });
  return { status: response.status, body: await response.json(), ms: performance.now() - started };
}

/** Server CPU (this process: the server runs in it) and log lines over `ms` of a faulted server. */
/**
 * No bot worker threads in the servers whose calm is measured: process.cpuUsage counts every
 * thread, and a new worker solves its endgame table as it starts, which is not the timers under test.
 */
const QUIET = { botWorkers: 0 } as const;

async function calmness(
  lines: () => number,
  ms: number,
): Promise<{ cpuShare: number; linesPerSecond: number }> {
  const cpu = process.cpuUsage();
  const before = lines();
  const started = performance.now();
  await sleep(ms);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    cpuShare: (used.user + used.system) / 1000 / wall,
    linesPerSecond: ((lines() - before) * 1000) / wall,
  };
}

/** A game of 3 s a side, seated, after G@c3 a1-b1: the goat's clock runs. */
async function goatsTurnOnTheClock(url: string): Promise<{ roomId: string; goat: Client; tiger: Client }> {
  const seated = await fixture.seat(url, { clock: { initialMs: 3000, incrementMs: 0 } });
  expect(seated.joined).toMatchObject({ ok: true });
  expect(seated.claimed).toMatchObject({ ok: true });
  await playMoves(seated, ['G@c3', 'a1-b1']);
  return seated;
}

describe('a store that fails', () => {
  it('SQLite on a full disk: UNAVAILABLE acks, /healthz 503, calm timers, the game ends on time once it can be stored, full recovery', {
    timeout: 90_000,
  }, async () => {
    const dataDir = mountTmpfs('8m', fixture.defer);
    const log = recordingLogger();
    const server = await fixture.server({
      dataDir,
      options: { logger: log.logger, roomIdleMs: 500, ...QUIET },
    });
    const { url } = server;
    // A timed game whose goat clock runs out while the disk is full.
    const { roomId, goat, tiger } = await goatsTurnOnTheClock(url);
    const before = await getSnapshot(url, roomId);
    expect((await health(url)).status).toBe(200);

    const free = fillDisk(join(dataDir, 'filler'));
    let freed = false;
    fixture.defer(() => {
      if (!freed) free();
    });

    const move = await timed(goat, 'move', { roomId, move: 'G@c2', ply: 2 });
    expect(move.ack).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(move.ms).toBeLessThan(2000);
    const chat = await timed(goat, 'chat:send', { roomId, channel: 'players', text: 'hello' });
    expect(chat.ack).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(chat.ms).toBeLessThan(2000);
    const faulted = await health(url);
    expect(faulted).toMatchObject({ status: 503, body: { status: 'unavailable' } });
    expect(faulted.ms).toBeLessThan(1000);
    // Nothing changed: the same moves, the same version.
    const unchanged = await getSnapshot(url, roomId);
    expect(unchanged.moves).toEqual(before.moves);
    expect(unchanged.version).toBe(before.version);

    // The goat's flag falls now (3 s from the tiger's move): its timer must back off, not spin.
    await sleep(3000);
    const calm = await calmness(() => log.lines.length, 4000);
    expect(calm.cpuShare, tail(log.lines)).toBeLessThan(0.1);
    expect(calm.linesPerSecond, tail(log.lines)).toBeLessThan(10);

    // Everyone leaves: the room stays in memory, its game's end (the flag) still to be stored.
    goat.close();
    tiger.close();
    await sleep(1500);
    expect(server.app.rooms.liveRooms).toBe(1);

    // The disk is freed: healthy again; the flag timer, backing off, stores the goats' loss on time
    // with nobody asking, and then the room leaves memory.
    free();
    freed = true;
    await healthyAgain(url);
    await waitUntil(() => server.app.rooms.liveRooms === 0, 45_000); // retries back off to 30 s apart
    const after = await getSnapshot(url, roomId);
    expect(after.moves).toEqual(before.moves);
    expect(after.result).toMatchObject({ winner: 'tiger', reason: 'timeout' });
    // The next game plays normally.
    const next = await createRoom(url, { variant: 'bagh-chal', side: 'goat' });
    const player = await fixture.client(url);
    expect(
      await player.request('room:join', { roomId: next.roomId, seatToken: next.seatToken }),
    ).toMatchObject({
      ok: true,
    });
  });

  it('SQLite write-locked by another connection: UNAVAILABLE within 2 s, /healthz 503 within 1 s; unlocked: the game goes on', async () => {
    const server = await fixture.server({ options: QUIET });
    const { url } = server;
    const seated = await fixture.seat(url);
    const { roomId, goat, tiger } = seated;
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    const lock = lockSqlite(server.dataDir, fixture.defer);
    const move = await timed(tiger, 'move', { roomId, move: 'a1-b1', ply: 1 });
    expect(move.ack).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(move.ms).toBeLessThan(2000);
    const faulted = await health(url);
    expect(faulted.status).toBe(503);
    expect(faulted.ms).toBeLessThan(1000);
    lock.unlock();
    await healthyAgain(url);
    expect(await tiger.request('move', { roomId, move: 'a1-b1', ply: 1 })).toMatchObject({ ok: true });
    expect((await getSnapshot(url, roomId)).moves).toEqual(['G@c3', 'a1-b1']);
  });

  it('a move the store refused is timed when it was first sent: sent again once the store is back, it is played though its clock ran out meanwhile', async () => {
    const server = await fixture.server({ options: QUIET });
    const { url } = server;
    const { roomId, goat } = await goatsTurnOnTheClock(url);
    // The goat's 3 s run from the tiger's move, as the server dated it (its clock is this one's):
    // the snapshot's reading of the goat's clock at its own time says since when it runs.
    const tigerMoved = await goat.waitFor(
      (event) => event.type === 'move' && event.snapshot.moves.length === 2,
    );
    const { at, clock } = tigerMoved.snapshot;
    const goatsTurn = at - (3000 - (clock?.goat ?? 0));

    const lock = lockSqlite(server.dataDir, fixture.defer);
    const move = { roomId, move: 'G@c2', ply: 2 };
    expect(await goat.request('move', move)).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    const firstTry = Date.now(); // the server judged that try no later
    // The goat's page sends the move again now and then, past the goat's flag.
    while (Date.now() < goatsTurn + 5000) {
      await sleep(1000);
      expect(await goat.request('move', move)).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    }
    lock.unlock();
    await healthyAgain(url);
    const played = Date.now(); // the server plays it no earlier
    expect(await goat.request('move', move)).toMatchObject({ ok: true });
    const after = await getSnapshot(url, roomId);
    expect(after.result).toBeNull();
    expect(after.moves).toEqual(['G@c3', 'a1-b1', 'G@c2']);
    // Charged up to the first try, not the outage: at least what it had left then.
    expect(after.clock?.goat).toBeGreaterThanOrEqual(3000 - (firstTry - goatsTurn));
    expect(after.clock?.running).toBe('tiger');
    // The tiger's clock started when the move was played, not at the goat's first try (5 s before).
    expect(after.clock?.tiger).toBeGreaterThanOrEqual((clock?.tiger ?? 0) - (after.at - played));
  });

  it("a move other than the one the store refused is timed as usual (its flag fell meanwhile); the opponent's is no such move", async () => {
    const server = await fixture.server({ options: QUIET });
    const { url } = server;
    const { roomId, goat, tiger } = await goatsTurnOnTheClock(url);
    const lock = lockSqlite(server.dataDir, fixture.defer);
    expect(await goat.request('move', { roomId, move: 'G@c2', ply: 2 })).toMatchObject({
      ok: false,
      error: { code: 'UNAVAILABLE' },
    });
    await sleep(3500); // past the goat's 3 s
    lock.unlock();
    await healthyAgain(url);
    // The opponent's move out of turn does not make the goat's flag fall while the hold stands.
    expect(await tiger.request('move', { roomId, move: 'b1-b2', ply: 2 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_YOUR_TURN' },
    });
    expect((await getSnapshot(url, roomId)).result).toBeNull();
    expect(await goat.request('move', { roomId, move: 'G@d2', ply: 2 })).toMatchObject({
      ok: false,
      error: { code: 'GAME_OVER' },
    });
    expect((await getSnapshot(url, roomId)).result).toMatchObject({ winner: 'tiger', reason: 'timeout' });
  });

  it('on PostgreSQL the hold stands while the page re-joins (refused too: a join reads the store), past its 15 s', {
    timeout: 90_000,
  }, async () => {
    const pgDir = fixture.dataDir();
    let postgres = await startPostgres({ dataDir: pgDir });
    fixture.defer(() => postgres.stop());
    const server = await fixture.server({ config: { DATABASE_URL: postgres.url }, options: QUIET });
    const { url } = server;
    const table = await fixture.table(url, { clock: { initialMs: 3000, incrementMs: 0 } });
    const { roomId, goat } = table;
    await playMoves(table, ['G@c3', 'a1-b1']);

    await postgres.stop();
    const move = { roomId, move: 'G@c2', ply: 2 };
    expect(await goat.request('move', move)).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    // As the page does before it sends the move again: re-joins, refused while the store is away.
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      await sleep(2000);
      const joined = await goat.request('room:join', { roomId, seatToken: table.tokens.goat });
      expect(joined).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    }
    postgres = await startPostgres({ port: postgres.port, dataDir: pgDir });
    await healthyAgain(url);
    expect(
      await retried(() => goat.request('room:join', { roomId, seatToken: table.tokens.goat })),
    ).toMatchObject({
      ok: true,
      snapshot: { result: null },
    });
    expect(await goat.request('move', move)).toMatchObject({ ok: true });
    const after = await getSnapshot(url, roomId);
    expect(after.result).toBeNull();
    expect(after.moves).toEqual(['G@c3', 'a1-b1', 'G@c2']);
  });

  it('a spectator arriving while the store fails watches all the same: the room as it is, then its moves', async () => {
    const server = await fixture.server({ options: QUIET });
    const { url } = server;
    const { roomId, goat, tiger } = await fixture.seat(url);
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    const lock = lockSqlite(server.dataDir, fixture.defer);
    const watcher = await fixture.client(url);
    const joined = await watcher.request('room:join', { roomId });
    expect(joined).toMatchObject({ ok: true, role: 'spectator', snapshot: { moves: ['G@c3'] } });
    // Not counted (its arrival is not stored), and a move is still refused meanwhile.
    expect(joined.snapshot.spectators).toBe(0);
    expect(await tiger.request('move', { roomId, move: 'a1-b1', ply: 1 })).toMatchObject({
      ok: false,
      error: { code: 'UNAVAILABLE' },
    });
    lock.unlock();
    await healthyAgain(url);
    expect(await tiger.request('move', { roomId, move: 'a1-b1', ply: 1 })).toMatchObject({ ok: true });
    await watcher.waitFor((event) => event.type === 'move' && event.snapshot.moves.length === 2);
  });

  it('PostgreSQL stopped: UNAVAILABLE acks and 503 at once, calm; started again: the game goes on', async () => {
    const pgDir = fixture.dataDir();
    let postgres = await startPostgres({ dataDir: pgDir });
    fixture.defer(() => postgres.stop());
    const redis = await startRedis();
    fixture.defer(() => redis.stop());
    const log = recordingLogger();
    const server = await fixture.server({
      config: { DATABASE_URL: postgres.url, REDIS_URL: redis.url },
      options: { logger: log.logger, ...QUIET },
    });
    const { url } = server;
    const table = await fixture.table(url, { clock: { initialMs: 60_000, incrementMs: 0 } });
    const { roomId, goat, tiger } = table;
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });

    await postgres.stop();
    const move = await timed(tiger, 'move', { roomId, move: 'a1-b1', ply: 1 });
    expect(move.ack).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(move.ms).toBeLessThan(2000);
    const faulted = await health(url);
    expect(faulted).toMatchObject({ status: 503, body: { status: 'unavailable' } });
    expect(faulted.ms).toBeLessThan(1000);
    const created = await fetch(`${url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variant: 'bagh-chal', side: 'goat' }),
    });
    expect(created.status).toBe(503);
    expect(await created.json()).toMatchObject({ error: { code: 'UNAVAILABLE' } });
    const calm = await calmness(() => log.lines.length, 3000);
    expect(calm.cpuShare, tail(log.lines)).toBeLessThan(0.1);
    expect(calm.linesPerSecond, tail(log.lines)).toBeLessThan(10);

    // The same data, the same port: the pool connects again by itself.
    postgres = await startPostgres({ port: postgres.port, dataDir: pgDir });
    await healthyAgain(url);
    // The same command again: stored once, after the move acknowledged before the outage.
    expect(await retried(() => tiger.request('move', { roomId, move: 'a1-b1', ply: 1 }))).toMatchObject({
      ok: true,
    });
    expect((await getSnapshot(url, roomId)).moves).toEqual(['G@c3', 'a1-b1']);
  });

  it('PostgreSQL frozen (SIGSTOP): each command answered UNAVAILABLE within 2 s, /healthz 503 within 1 s', async () => {
    const postgres = await startPostgres();
    fixture.defer(() => postgres.stop());
    // A short store timeout: the 2 s bound then holds with room to spare on a loaded machine.
    const server = await fixture.server({
      config: { DATABASE_URL: postgres.url },
      options: { storeTimeoutMs: 500 },
    });
    const { roomId, goat, tiger } = await fixture.table(server.url);
    const thaw = frozen(postgres);
    // Commands queued behind a store that does not answer: each is still answered in time.
    const acks = await Promise.all([
      timed(goat, 'move', { roomId, move: 'G@c3', ply: 0 }),
      timed(goat, 'chat:send', { roomId, channel: 'players', text: 'still there?' }),
      timed(tiger, 'chat:send', { roomId, channel: 'players', text: 'yes' }),
    ]);
    for (const { ack, ms } of acks) {
      expect(ack).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
      expect(ms).toBeLessThan(2000);
    }
    const faulted = await health(server.url);
    expect(faulted.status).toBe(503);
    expect(faulted.ms).toBeLessThan(1000);

    thaw();
    expect(await retried(() => goat.request('move', { roomId, move: 'G@c3', ply: 0 }))).toMatchObject({
      ok: true,
    });
    expect((await getSnapshot(server.url, roomId)).moves).toEqual(['G@c3']);
  });

  it('PostgreSQL frozen under two nodes: a player who leaves meanwhile is shown gone once it is back, with nobody sending anything', async () => {
    const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    fixture.defer(async () => {
      await Promise.all([postgres.stop(), redis.stop()]);
    });
    const config = { DATABASE_URL: postgres.url, REDIS_URL: redis.url };
    // Empty rooms leave memory after 1.5 s idle: well before the store is back.
    const options = { roomIdleMs: 1500, storeTimeoutMs: 500 };
    const a = await fixture.server({ config, options });
    const b = await fixture.server({ config, options });
    const { goat, tiger, joined, claimed } = await fixture.seat(b.url, {}, { tiger: a.url });
    expect([joined.ok, claimed.ok]).toEqual([true, true]);
    const thaw = frozen(postgres);
    // The tiger's page closes: node A cannot store the disconnect, and holds no socket of the room.
    tiger.close();
    await sleep(4000);
    thaw();
    const gone = await goat.waitFor((e) => e.snapshot.seats.tiger.connected === false, 15_000);
    expect(gone.snapshot.seats.tiger.taken).toBe(true);
  });

  it('Redis stopped and started again empty mid-game: the game goes on from PostgreSQL, no acked move lost, no split', async () => {
    const postgres = await startPostgres();
    fixture.defer(() => postgres.stop());
    let redis = await startRedis();
    fixture.defer(() => redis.stop());
    const config = { DATABASE_URL: postgres.url, REDIS_URL: redis.url };
    const a = await fixture.server({ config });
    const b = await fixture.server({ config });
    const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    // The goat has a tab on each node, the tiger plays on B, a spectator watches on B.
    const [goatA, goatB, tiger, watcher] = await fixture.clients(a.url, b.url, b.url, b.url);
    for (const goat of [goatA, goatB]) {
      expect(await goat.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
        ok: true,
      });
    }
    expect(await tiger.request('seat:claim', { roomId, side: 'tiger' })).toMatchObject({ ok: true });
    expect(await watcher.request('room:join', { roomId })).toMatchObject({ ok: true });
    const line = BAGH_CHAL_TIGER_WIN;
    const acked: string[] = [];
    /** The ply's move, the goat's sent from both of its tabs at once: applied once (PostgreSQL decides). */
    const play = async (ply: number) => {
      const move = line[ply]!;
      const players = ply % 2 === 0 ? [goatA, goatB] : [tiger];
      const acks = await Promise.all(players.map((player) => player.request('move', { roomId, move, ply })));
      const oks = acks.filter((ack) => ack.ok === true);
      expect(oks.length, JSON.stringify(acks)).toBeGreaterThanOrEqual(1);
      expect(new Set(oks.map((ack) => ack.version)).size).toBe(1);
      for (const ack of acks) if (!ack.ok) expect(ack.error.code).toBe('STALE');
      acked.push(move);
    };
    for (let ply = 0; ply < 2; ply++) await play(ply);

    await redis.stop();
    // Without Redis the nodes hear nothing of each other, yet each command is judged on the
    // stored room: the moves go on.
    for (let ply = 2; ply < 4; ply++) await play(ply);

    redis = await startRedis({ port: redis.port }); // empty: it kept nothing
    for (let ply = 4; ply < 8; ply++) await play(ply);
    const snapshots = await Promise.all([a, b].map((node) => getSnapshot(node.url, roomId)));
    for (const snapshot of snapshots) expect(snapshot.moves).toEqual(acked);
    expect(snapshots[0]!.version).toBe(snapshots[1]!.version);
    // Broadcasts cross the nodes again: the spectator on B sees the goat's last move, made on A or B.
    const last = await watcher.waitFor((e) => e.type === 'move' && e.snapshot.moves.length === acked.length);
    expect(last.snapshot.moves).toEqual(acked);
  });

  it('PostgreSQL frozen during a seat claim that is stored after all: its second try takes the seat, nobody is shown here who is not', async () => {
    const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    fixture.defer(async () => {
      await Promise.all([postgres.stop(), redis.stop()]);
    });
    const config = { DATABASE_URL: postgres.url, REDIS_URL: redis.url };
    const server = await fixture.server({ config, options: { storeTimeoutMs: 500 } });
    const created = await createRoom(server.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const [goat, claimer] = await fixture.clients(server.url, server.url);
    expect(await goat.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
    });
    const thaw = frozen(postgres);
    expect(await claimer.request('seat:claim', { roomId, side: 'tiger' })).toMatchObject({
      ok: false,
      error: { code: 'UNAVAILABLE' },
    });
    thaw();
    // The claim commits once PostgreSQL runs again; the room finds it and shows it, but the
    // claimer's socket is not the seat's: the tiger is shown gone.
    const stored = await goat.waitFor((e) => e.snapshot.seats.tiger.taken, 10_000);
    const recounted = await goat.waitFor((e) => e.version > stored.version, 10_000);
    expect(recounted.snapshot.seats.tiger).toMatchObject({ taken: true, connected: false });
    // The claimer tries again, as a player clicks again: the seat is its own.
    const again = await retried(() => claimer.request('seat:claim', { roomId, side: 'tiger' }));
    expect(again).toMatchObject({
      ok: true,
      snapshot: { seats: { tiger: { taken: true, connected: true } } },
    });
    expect(await claimer.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_YOUR_TURN' },
    });
  });

  it("one node on PostgreSQL: a join still queued when its player's connection drops and is recovered leaves the player seated", async () => {
    const postgres = await startPostgres();
    fixture.defer(() => postgres.stop());
    const server = await fixture.server({
      config: { DATABASE_URL: postgres.url },
      options: { storeTimeoutMs: 5000 },
    });
    const { roomId, seatToken } = await createRoom(server.url, { variant: 'bagh-chal', side: 'goat' });
    const player = await Client.connect(server.url, { reconnect: true });
    fixture.defer(() => player.close());
    expect(await player.request('room:join', { roomId, seatToken })).toMatchObject({
      ok: true,
      role: 'goat',
    });
    const watcher = await fixture.client(server.url);
    expect(await watcher.request('room:join', { roomId })).toMatchObject({ ok: true });
    // As the page does: every connect re-joins.
    let recovered = false;
    player.socket.on('connect', () => {
      recovered = player.socket.recovered;
      void player.request('room:join', { roomId, seatToken }).catch(() => {});
    });
    const thaw = frozen(postgres);
    const first = player.request('room:join', { roomId, seatToken }).catch(() => 'no answer');
    await sleep(300);
    player.socket.io.engine.close(); // the transport drops; the client reconnects and is recovered
    await sleep(1500);
    thaw();
    await first;
    await waitUntil(() => recovered);
    await sleep(1000);
    expect((await getSnapshot(server.url, roomId)).seats.goat).toMatchObject({
      taken: true,
      connected: true,
    });
    expect(await player.request('move', { roomId, move: 'G@b1', ply: 0 })).toMatchObject({ ok: true });
  });

  it('Redis away for a move: the opponent on the other node is shown it once Redis is back, with nobody sending anything', async () => {
    const { goat, tiger, redis, roomId } = await splitTable();
    await redis.stop();
    // Stored and acked, but its broadcast reaches node A's sockets only.
    const ack = await goat.request('move', { roomId, move: 'G@b1', ply: 0 });
    expect(ack).toMatchObject({ ok: true });
    await sleep(500);
    expect(tiger.events.some((e) => e.version === ack.version)).toBe(false);
    await redis.start();
    // The tiger's socket never closed: B shows it the room's latest event (here the move itself).
    const shown = await tiger.waitForVersion(ack.version, 10_000);
    expect(shown.snapshot.moves).toEqual(['G@b1']);
  });

  it('Redis back while PostgreSQL is still away: the rooms catch up once PostgreSQL answers', async () => {
    const { goat, tiger, redis, postgres, roomId } = await splitTable({ storeTimeoutMs: 500 });
    await redis.stop();
    const ack = await goat.request('move', { roomId, move: 'G@b1', ply: 0 });
    expect(ack).toMatchObject({ ok: true });
    const thaw = frozen(postgres);
    await redis.start();
    await sleep(3000); // the first catch-up finds the store frozen
    thaw();
    expect((await tiger.waitForVersion(ack.version, 15_000)).snapshot.moves).toEqual(['G@b1']);
  });

  it("only node A's publishing connection to Redis drops: the move it could not publish reaches node B", async () => {
    const { goat, tiger, redis, roomId } = await splitTable();
    const move = goat.request('move', { roomId, move: 'G@b1', ply: 0 });
    // Every client that is not subscribed: the nodes' publishers (the subscribers stay).
    const admin = createClient({ url: redis.url });
    await admin.connect();
    await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal']);
    await admin.close().catch(() => {});
    const ack = await move;
    expect(ack).toMatchObject({ ok: true });
    expect((await tiger.waitForVersion(ack.version, 10_000)).snapshot.moves).toEqual(['G@b1']);
  });
});

/** Polls /healthz until it answers 200 (10 s at most). */
async function healthyAgain(url: string): Promise<void> {
  let healthy = await health(url);
  for (let i = 0; i < 100 && healthy.status !== 200; i++) {
    await sleep(100);
    healthy = await health(url);
  }
  expect(healthy.status).toBe(200);
}

/** `command` again while it is answered UNAVAILABLE (the store's breaker tries again by itself). */
// biome-ignore lint/suspicious/noExplicitAny: acks are checked by each test
async function retried(command: () => Promise<any>): Promise<unknown> {
  let ack = await command();
  for (let i = 0; i < 20 && ack.ok === false && ack.error.code === 'UNAVAILABLE'; i++) {
    await sleep(250);
    ack = await command();
  }
  return ack;
}

/**
 * Two nodes on one PostgreSQL and one redis-server, a room made on A: its goat plays on A, its
 * tiger on B. `redis.start()` starts it again on its port, empty.
 */
async function splitTable(options: { storeTimeoutMs?: number } = {}) {
  const postgres = await startPostgres();
  fixture.defer(() => postgres.stop());
  let server = await startRedis();
  fixture.defer(() => server.stop());
  const redis = {
    url: server.url,
    stop: () => server.stop(),
    start: async () => {
      server = await startRedis({ port: server.port });
    },
  };
  const config = { DATABASE_URL: postgres.url, REDIS_URL: server.url };
  const a = await fixture.server({ config, options });
  const b = await fixture.server({ config, options });
  const { roomId, goat, tiger, joined, claimed } = await fixture.seat(a.url, {}, { tiger: b.url });
  expect([joined.ok, claimed.ok]).toEqual([true, true]);
  return { postgres, redis, roomId, goat, tiger };
}

/** PostgreSQL frozen (SIGSTOP) until the returned thaw is called, or the test ends. */
function frozen(postgres: { freeze(frozen: boolean): void }): () => void {
  postgres.freeze(true);
  let thawed = false;
  const thaw = () => {
    if (thawed) return;
    thawed = true;
    postgres.freeze(false);
  };
  fixture.defer(thaw);
  return thaw;
}
