/**
 * The one storage contract, run against every store: SQLite (one node), PostgreSQL (a real one,
 * started here; several nodes) and memory (tests, benches). Each store is opened twice on the
 * same data, as two nodes (or two connections) would: what one writes the other reads, and of
 * racing writers exactly one applies a change at a version.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../src/storage/memory.js';
import {
  openPostgresStorage,
  TIMED_ROOMS_SQL as POSTGRES_TIMED_ROOMS,
  type PostgresStorage,
} from '../src/storage/postgres.js';
import { openSqliteStorage, TIMED_ROOMS_SQL as SQLITE_TIMED_ROOMS } from '../src/storage/sqlite.js';
import type {
  ArchivedGame,
  RoomRecord,
  RoomStorage,
  StoredChange,
  StoredData,
} from '../src/storage/types.js';
import { type LocalPostgres, startLocalPostgres } from '../support/local-postgres.js';
import { removeDir, tempDir } from './helpers.js';

let postgres: LocalPostgres | undefined;
const dir = tempDir('bagh-contract-');
beforeAll(async () => {
  postgres = await startLocalPostgres();
}, 30_000);
afterAll(async () => {
  await postgres?.stop();
  removeDir(dir);
});

/** Two handles on one store's data. */
type Pair = readonly [RoomStorage, RoomStorage];

const stores: [string, () => Promise<Pair>][] = [
  [
    'sqlite',
    async () => {
      const file = join(dir, 'bagh.sqlite');
      return [openSqliteStorage(file), openSqliteStorage(file)];
    },
  ],
  [
    'memory',
    async () => {
      const storage = createMemoryStorage();
      return [storage, storage];
    },
  ],
  [
    'postgres',
    async () => {
      if (!postgres) throw new Error('postgres has not started');
      return Promise.all([openPostgresStorage(postgres.url), openPostgresStorage(postgres.url)]);
    },
  ],
];

let next = 0;
const record = (): RoomRecord => ({
  roomId: `room${++next}`,
  createdAt: 1_700_000_000_000 + next,
  init: { variant: 'bagh-chal', nested: { list: [1, 2, 3] }, text: 'नमस्ते "quoted"' },
  version: 0,
  changes: [],
});
const move = (version: number, text: string): StoredChange => ({
  version,
  kind: 'move',
  data: { move: text },
});
const presence = (version: number): StoredChange => ({ version, kind: 'presence', data: null });
const archived = (roomId: string, fields: Partial<ArchivedGame> = {}): ArchivedGame => ({
  roomId,
  variant: 'bagh-chal',
  options: 'goatsFirst',
  start: null,
  moves: 'G@c3 a1-b1 G@b1',
  plies: 3,
  winner: 'tiger',
  reason: 'captures',
  clock: { initialMs: 300_000, incrementMs: 2000, tiger: 1234, goat: 0 },
  bot: { side: 'goat', level: 'casual' },
  startedAt: 1_700_000_000_000,
  finishedAt: 1_700_000_050_000,
  ...fields,
});

describe.each(stores)('%s storage', (_name, open) => {
  let a: RoomStorage;
  let b: RoomStorage;
  beforeAll(async () => {
    [a, b] = await open();
  });
  afterAll(async () => {
    await a?.close();
    if (b !== a) await b?.close();
  });

  it('creates a room once and loads it back; an unknown room is null', async () => {
    const room = record();
    expect(await a.createRoom(room)).toBe(true);
    expect(await b.createRoom({ ...room, createdAt: 1 })).toBe(false);
    expect(await b.loadRoom(room.roomId)).toEqual(room);
    expect(await a.loadRoom('nope')).toBeNull();
    if (a.currentVersion) expect(await a.currentVersion('nope')).toBeNull();
  });

  it('appends in order, keeps only changes with data, bumps the version for all', async () => {
    const room = record();
    await a.createRoom(room);
    expect(await a.append(room.roomId, 0, [presence(1), move(2, 'G@c3')])).toEqual({ ok: true });
    expect(await b.append(room.roomId, 2, [move(3, 'a1-b1')])).toEqual({ ok: true });
    expect(await a.append(room.roomId, 3, [])).toEqual({ ok: true });
    if (b.currentVersion) expect(await b.currentVersion(room.roomId)).toBe(3);
    const loaded = await b.loadRoom(room.roomId);
    expect(loaded?.version).toBe(3);
    expect(loaded?.changes).toEqual([move(2, 'G@c3'), move(3, 'a1-b1')]);
  });

  it('refuses an append at a version that moved on, and one for an unknown room', async () => {
    const room = record();
    await a.createRoom(room);
    await a.append(room.roomId, 0, [move(1, 'G@c3')]);
    expect(await b.append(room.roomId, 0, [move(1, 'G@b3')])).toEqual({ ok: false, storedVersion: 1 });
    expect(await b.append('unknown', 0, [move(1, 'G@b3')])).toEqual({ ok: false, storedVersion: null });
    expect((await a.loadRoom(room.roomId))?.changes).toEqual([move(1, 'G@c3')]);
    await expect(a.append(room.roomId, 1, [move(3, 'x')])).rejects.toThrow(/version 3, expected 2/);
  });

  it('lets exactly one of many racing writers apply a change at one version', async () => {
    const room = record();
    await a.createRoom(room);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).append(room.roomId, 0, [move(1, `m${i}`)])),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual(Array(19).fill({ ok: false, storedVersion: 1 }));
    expect((await a.loadRoom(room.roomId))?.changes).toHaveLength(1);
  });

  it('gives each of many rooms appending at once its own outcome; of two appends at one version, one wins', async () => {
    const rooms = Array.from({ length: 40 }, record);
    for (const room of rooms) await a.createRoom(room);
    // Every fourth room already moved on: its append at version 0 is refused, the others are not.
    const stale = rooms.filter((_, i) => i % 4 === 0);
    for (const room of stale) await b.append(room.roomId, 0, [move(1, 'G@c3')]);
    const twice = rooms[1]!;
    const asked = [
      ...rooms.map((room, i) => a.append(room.roomId, 0, [presence(1), move(2, `m${i}`)])),
      a.append(twice.roomId, 0, [move(1, 'again')]),
      a.append('unknown', 0, [move(1, 'x')]),
    ];
    const results = await Promise.all(asked);
    rooms.forEach((room, i) => {
      if (room === twice) return;
      expect(results[i]).toEqual(i % 4 === 0 ? { ok: false, storedVersion: 1 } : { ok: true });
    });
    // The same room twice at one version: exactly one applied, the other learns the winner's version.
    const pair = [results[1], results[rooms.length]];
    const won = pair.findIndex((result) => result?.ok);
    expect(won).not.toBe(-1);
    expect(pair[1 - won]).toEqual({ ok: false, storedVersion: won === 0 ? 2 : 1 });
    expect(results[rooms.length + 1]).toEqual({ ok: false, storedVersion: null });
    for (const [i, room] of rooms.entries()) {
      const loaded = await b.loadRoom(room.roomId);
      if (i % 4 === 0) expect(loaded?.changes).toEqual([move(1, 'G@c3')]);
      else if (room === twice && won === 1) expect(loaded?.changes).toEqual([move(1, 'again')]);
      else expect(loaded?.changes).toEqual([move(2, `m${i}`)]);
    }
  });

  it('hands out the version and the changes after a version (changesSince), null for an unknown room', async () => {
    const room = record();
    await a.createRoom(room);
    // 80 versions: every third without data, so versions and positions in the log differ.
    const kept: StoredChange[] = [];
    for (let version = 1; version <= 80; version++) {
      const change = version % 3 === 0 ? presence(version) : move(version, `m${version}`);
      expect(await a.append(room.roomId, version - 1, [change])).toEqual({ ok: true });
      if (change.data !== null) kept.push(change);
    }
    for (const since of [0, 1, 2, 3, 40, 45, 78, 79, 80]) {
      expect(await b.changesSince?.(room.roomId, since)).toEqual({
        version: 80,
        changes: kept.filter((c) => c.version > since),
      });
    }
    expect(await b.changesSince?.('unknown', 0)).toBeNull();
  });

  it('archives a game with the append that gives its result, in the same transaction, once', async () => {
    const room = record();
    await a.createRoom(room);
    const game = archived(room.roomId, { finishedAt: 1_700_000_100_000 });
    // Refused at a stale version: nothing stored, nothing archived.
    expect(await a.append(room.roomId, 1, [move(2, 'x')], game)).toEqual({ ok: false, storedVersion: 0 });
    expect(await b.loadGame(room.roomId)).toBeNull();
    expect(await a.append(room.roomId, 0, [move(1, 'G@c3')], game)).toEqual({ ok: true });
    expect(await b.loadGame(room.roomId)).toEqual(game);
    // Archived again (another node, a reload): the first row stays as it was.
    await b.archiveGame({ ...game, reason: 'resign', finishedAt: 1 });
    expect(await a.loadGame(room.roomId)).toEqual(game);
    expect(await a.loadGame('unknown')).toBeNull();
    // archiveGame alone, for a room finished before the archive existed.
    const old = archived('old-room', { clock: null, bot: null, start: 'x' });
    await a.archiveGame(old);
    expect(await b.loadGame('old-room')).toEqual(old);
  });

  it('lists the timed rooms in play created since a time (a clock, a move, no result), oldest first', async () => {
    const at = 1_800_000_000_000;
    const timed = (createdAt: number, clock: StoredData | null = { initialMs: 60_000, incrementMs: 0 }) => ({
      ...record(),
      createdAt,
      init: { variant: 'bagh-chal', clock },
    });
    const [later, earlier] = [timed(at + 2), timed(at + 1)];
    const notStarted = timed(at + 3);
    const untimed = timed(at + 4, null);
    const finished = timed(at + 5);
    const before = timed(at - 1);
    for (const room of [later, earlier, notStarted, untimed, finished, before]) await a.createRoom(room);
    for (const room of [later, earlier, untimed, before]) await a.append(room.roomId, 0, [move(1, 'G@c3')]);
    await a.append(finished.roomId, 0, [move(1, 'G@c3')], archived(finished.roomId));
    expect(await b.timedRoomsInPlay(at, 10)).toEqual([earlier.roomId, later.roomId]);
    expect(await b.timedRoomsInPlay(at, 1)).toEqual([earlier.roomId]);
  });

  it('lists archived games newest first, keyset-paged through ties, filtered, aborted games left out', async () => {
    const variant = `v${++next}`;
    const at = 2_000_000_000_000 + next * 1000;
    const games = [
      archived('g-b', { variant, finishedAt: at + 2, winner: 'tiger' }),
      archived('g-a', { variant, finishedAt: at + 2, winner: null, reason: 'agreement' }),
      archived('g-c', { variant, finishedAt: at + 2, winner: 'goat', reason: 'trapped' }),
      archived('g-d', { variant, finishedAt: at + 1, winner: 'tiger', reason: 'timeout' }),
      archived('g-e', { variant, finishedAt: at + 3, winner: null, reason: 'aborted' }),
      archived('g-f', { variant: 'other', finishedAt: at, winner: 'tiger' }),
    ];
    for (const game of games) await (game.roomId < 'g-c' ? a : b).archiveGame(game);
    const ids = (listed: { roomId: string }[]) => listed.map((game) => game.roomId);
    expect(ids(await b.listGames({ variant, limit: 10 }))).toEqual(['g-c', 'g-b', 'g-a', 'g-d']);
    // Newest of all the store's games (they finished last), without their moves.
    const [first] = await a.listGames({ limit: 1 });
    const { moves: _moves, start: _start, ...summary } = games[2]!;
    expect(first).toEqual(summary);
    // Page by page through the tie at `at + 2`: each page starts after the last one's key.
    const pages: string[][] = [];
    let before: { finishedAt: number; roomId: string } | undefined;
    for (;;) {
      const page = await a.listGames({ variant, limit: 2, before });
      if (page.length === 0) break;
      pages.push(ids(page));
      const last = page[page.length - 1]!;
      before = { finishedAt: last.finishedAt, roomId: last.roomId };
    }
    expect(pages).toEqual([
      ['g-c', 'g-b'],
      ['g-a', 'g-d'],
    ]);
    expect(ids(await b.listGames({ variant, result: 'tiger', limit: 10 }))).toEqual(['g-b', 'g-d']);
    expect(ids(await b.listGames({ variant, result: 'goat', limit: 10 }))).toEqual(['g-c']);
    expect(ids(await b.listGames({ variant, result: 'draw', limit: 10 }))).toEqual(['g-a']);
    expect(ids(await b.listGames({ variant: 'other', result: 'tiger', limit: 10 }))).toEqual(['g-f']);
    expect(await b.listGames({ variant: 'none', limit: 10 })).toEqual([]);
  });

  it('answers the health check', async () => {
    await expect(a.check()).resolves.toBeUndefined();
  });
});

// Only a store shared by several nodes keeps the live index (one node lists the rooms it holds).
describe('postgres live index', () => {
  let a: PostgresStorage;
  let b: PostgresStorage;
  beforeAll(async () => {
    if (!postgres) throw new Error('postgres has not started');
    [a, b] = await Promise.all([openPostgresStorage(postgres.url), openPostgresStorage(postgres.url)]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('indexes public rooms in play across nodes; an older update never undoes a newer one', async () => {
    const entry = (id: string, moves: number) => ({ roomId: id, moves });
    const now = Date.now();
    await a.indexLive('live1', 0, entry('live1', 0), now);
    await b.indexLive('live2', 3, entry('live2', 2), now + 1);
    expect(await a.listLive(10)).toEqual([entry('live2', 2), entry('live1', 0)]);
    expect(await a.listLive(1)).toEqual([entry('live2', 2)]);
    await a.indexLive('live1', 4, entry('live1', 3), now + 2);
    await b.indexLive('live1', 2, entry('live1', 1), now + 3); // late and older: ignored
    await b.indexLive('live1', 4, entry('live1', 9), now + 3); // the same version again: ignored
    expect(await b.listLive(10)).toEqual([entry('live1', 3), entry('live2', 2)]);
    await a.indexLive('live2', 5, null, now + 4); // a result: unlisted
    await b.indexLive('live2', 4, entry('live2', 3), now + 5); // older than the result: ignored
    expect(await a.listLive(10)).toEqual([entry('live1', 3)]);
  });
});

// Every game is kept, so the timed games a start resumes must not be found by a scan of them all.
describe('the timed rooms in play at a start', () => {
  it('are found through the index on the room age in both databases', async () => {
    const file = join(dir, 'plan.sqlite');
    await openSqliteStorage(file).close();
    const sqlite = new Database(file, { readonly: true });
    const sqlitePlan = sqlite
      .prepare<[number, number], { detail: string }>(`EXPLAIN QUERY PLAN ${SQLITE_TIMED_ROOMS}`)
      .all(0, 10)
      .map((row) => row.detail)
      .join('\n');
    sqlite.close();
    expect(sqlitePlan).toMatch(/SEARCH room USING (COVERING )?INDEX room_created_at/);
    if (!postgres) throw new Error('postgres has not started');
    const storage = await openPostgresStorage(postgres.url);
    await storage.close();
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off'); // a near-empty table: make the planner show the index
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN ${POSTGRES_TIMED_ROOMS}`,
        [0, 10],
      );
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('room_created_at');
    } finally {
      await client.end();
    }
  });
});
