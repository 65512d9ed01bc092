/**
 * What is PostgreSQL's own (the shared contract is storage-contract.test.ts): migrations that
 * several nodes run at once, the constraint that keeps one change per room version, one node on
 * PostgreSQL alone, and a node that refuses REDIS_URL without DATABASE_URL.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresStorage, poolConfig } from '../src/storage/postgres.js';
import { migrations } from '../src/storage/postgres-migrations.js';
import { startServerProcess } from '../support/local-server.js';
import { getSnapshot, perTest, playMoves } from './helpers.js';
import { postgresForFile } from './multinode-helpers.js';

const fixture = perTest();
const shared = postgresForFile();
const freshDatabase = () => shared().freshDatabase();

describe('PostgreSQL storage', () => {
  it('migrates a new database once when several nodes start at once, and again finds nothing to do', async () => {
    const url = await freshDatabase();
    const opened = await Promise.all(Array.from({ length: 4 }, () => openPostgresStorage(url)));
    for (const storage of opened) fixture.defer(() => storage.close());
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    fixture.defer(() => client.end());
    const applied = async () =>
      (await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map(
        (row) => row.name,
      );
    expect(await applied()).toEqual(Object.keys(migrations).sort());
    const again = await openPostgresStorage(url);
    fixture.defer(() => again.close());
    expect(await applied()).toEqual(Object.keys(migrations).sort());
    // Every node works on the one schema.
    const room = { roomId: 'r1', createdAt: 1, init: {}, version: 0, changes: [] };
    expect(await opened[0]!.createRoom(room)).toBe(true);
    expect(await opened[3]!.loadRoom('r1')).toEqual(room);
  });

  it('refuses a second change at a room version in the database itself, whoever writes it', async () => {
    const storage = await openPostgresStorage(shared().postgres.url);
    fixture.defer(() => storage.close());
    await storage.createRoom({ roomId: 'pk1', createdAt: 1, init: {}, version: 0, changes: [] });
    const change = { version: 1, kind: 'move', data: { move: 'G@c3' } };
    expect(await storage.append('pk1', 0, [change])).toEqual({ ok: true });
    // Past the store, straight into the table: the primary key (room_id, version) says no.
    await expect(
      shared().admin.query(
        `INSERT INTO room_change (room_id, version, kind, data) VALUES ('pk1', 1, 'move', '{}')`,
      ),
    ).rejects.toMatchObject({ code: '23505', constraint: 'room_change_pkey' });
    expect((await storage.loadRoom('pk1'))?.changes).toEqual([change]);
  });

  it('sends the appends that arrive while one is in flight together, in one transaction, each with its outcome', async () => {
    const url = await freshDatabase();
    const storage = await openPostgresStorage(url);
    fixture.defer(() => storage.close());
    const rooms = Array.from({ length: 100 }, (_, i) => `many${i}`);
    for (const roomId of rooms)
      await storage.createRoom({ roomId, createdAt: 1, init: {}, version: 0, changes: [] });
    const change = (version: number, move: string) => ({ version, kind: 'move', data: { move } });
    const results = await Promise.all([
      ...rooms.map((roomId, i) => storage.append(roomId, 0, [change(1, `m${i}`)])),
      // many3 again, at its next version: it waits for the statement after the one that has its first.
      storage.append('many3', 1, [change(2, 'next'), { version: 3, kind: 'presence', data: null }]),
      // A stale version among them: refused alone, with the version the room is at.
      storage.append('many7', 5, [change(6, 'stale')]),
    ]);
    expect(results).toEqual([
      ...rooms.map(() => ({ ok: true })),
      { ok: true },
      { ok: false, storedVersion: 1 },
    ]);
    // The first was sent at once, alone; the 99 others that arrived meanwhile went in one
    // statement, many3's second after them: three transactions (a row's xmin is its writer's).
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    fixture.defer(() => client.end());
    const written = (
      await client.query<{ room_id: string; version: number; writer: string }>(
        'SELECT room_id, version, xmin::text AS writer FROM room_change ORDER BY room_id, version',
      )
    ).rows;
    expect(written).toHaveLength(101);
    const writerOf = (roomId: string, version: number) =>
      written.find((row) => row.room_id === roomId && row.version === version)?.writer;
    expect(new Set(written.map((row) => row.writer)).size).toBe(3);
    expect(new Set(rooms.slice(1).map((roomId) => writerOf(roomId, 1))).size).toBe(1);
    expect(writerOf('many3', 2)).not.toBe(writerOf('many3', 1));
    expect(await storage.currentVersion('many3')).toBe(3);
    expect((await storage.loadRoom('many3'))?.changes).toEqual([change(1, 'm3'), change(2, 'next')]);
  });

  it('lets two nodes append to the same rooms at once, in opposite orders: one wins each room, no deadlock', async () => {
    const url = await freshDatabase();
    const [a, b] = await Promise.all([openPostgresStorage(url), openPostgresStorage(url)]);
    fixture.defer(() => a.close());
    fixture.defer(() => b.close());
    const rooms = Array.from({ length: 60 }, (_, i) => `both${i}`);
    for (const roomId of rooms)
      await a.createRoom({ roomId, createdAt: 1, init: {}, version: 0, changes: [] });
    // Enough other rooms that each room is found by its key, in the order the batch lists them.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    fixture.defer(() => client.end());
    await client.query(
      `INSERT INTO room (id, created_at, init, version) SELECT 'other' || n, 1, '{}', 0 FROM generate_series(1, 20000) n`,
    );
    await client.query('ANALYZE room');
    for (let round = 0; round < 40; round++) {
      const appendAll = (storage: typeof a, order: string[], who: string) =>
        Promise.all(
          order.map((roomId) =>
            storage.append(roomId, round, [{ version: round + 1, kind: 'move', data: { who } }]),
          ),
        );
      const [byA, byB] = await Promise.all([
        appendAll(a, rooms, 'a'),
        appendAll(b, [...rooms].reverse(), 'b'),
      ]);
      byB.reverse();
      rooms.forEach((_, i) => {
        expect([byA[i], byB[i]]).toContainEqual({ ok: true });
        expect([byA[i], byB[i]]).toContainEqual({ ok: false, storedVersion: round + 1 });
      });
    }
    for (const roomId of rooms) expect((await b.loadRoom(roomId))?.version).toBe(40);
  });

  it('fails only the append whose data the database refuses, not the others sent with it', async () => {
    const url = await freshDatabase();
    const storage = await openPostgresStorage(url);
    fixture.defer(() => storage.close());
    const rooms = ['ok1', 'ok2', 'ok3'];
    for (const roomId of rooms)
      await storage.createRoom({ roomId, createdAt: 1, init: {}, version: 0, changes: [] });
    const change = { version: 1, kind: 'move', data: { move: 'G@c3' } };
    const [first, ...rest] = await Promise.allSettled([
      storage.append('ok1', 0, [change]),
      // A text parameter with a NUL: PostgreSQL refuses it (SQLSTATE 22021), and the statement with it.
      storage.append('bad\u0000room', 0, [change]),
      storage.append('ok2', 0, [change]),
      storage.append('ok3', 0, [change]),
    ]);
    expect(first).toEqual({ status: 'fulfilled', value: { ok: true } });
    expect(rest[0]).toMatchObject({ status: 'rejected', reason: { code: '22021' } });
    expect(rest.slice(1)).toEqual([
      { status: 'fulfilled', value: { ok: true } },
      { status: 'fulfilled', value: { ok: true } },
    ]);
    for (const roomId of rooms) expect((await storage.loadRoom(roomId))?.changes).toEqual([change]);
  });

  it('commits every change synchronously, whatever the database says by default', async () => {
    const url = await freshDatabase();
    const name = new URL(url).pathname.slice(1);
    await shared().admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    const pool = new pg.Pool(poolConfig(url));
    fixture.defer(() => pool.end());
    expect((await pool.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'on' }]);
    const plain = new pg.Pool({ connectionString: url });
    fixture.defer(() => plain.end());
    expect((await plain.query('SHOW synchronous_commit')).rows).toEqual([{ synchronous_commit: 'off' }]);
  });

  it('serves one node on DATABASE_URL alone; a game survives the node', async () => {
    const url = await freshDatabase();
    const first = await fixture.server({ config: { DATABASE_URL: url } });
    const seated = await fixture.seat(first.url);
    await playMoves(seated, ['G@c3', 'a1-b1']);
    await first.close();
    const second = await fixture.server({ config: { DATABASE_URL: url } });
    expect((await getSnapshot(second.url, seated.roomId)).moves).toEqual(['G@c3', 'a1-b1']);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
  });
});

describe('a node started with REDIS_URL alone', () => {
  it('refuses to start, saying why (run after pnpm build)', async () => {
    await expect(startServerProcess({ REDIS_URL: 'redis://127.0.0.1:1' })).rejects.toThrow(
      /exited \(2\)[\s\S]*REDIS_URL needs DATABASE_URL: several nodes keep their rooms in PostgreSQL/,
    );
  });
});
