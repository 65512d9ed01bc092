/**
 * What is PostgreSQL's own (the shared contract is storage-contract.test.ts): migrations that
 * several nodes run at once, the constraint that keeps one change per room version, one node on
 * PostgreSQL alone, and a node that refuses REDIS_URL without DATABASE_URL.
 */
import { connect, createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseUnreachable, openPostgresStorage, poolConfig } from '../src/storage/postgres.js';
import { migrations } from '../src/storage/postgres-migrations.js';
import { startServerProcess } from '../support/local-server.js';
import { createRoom, getSnapshot, perTest, playMoves, sleep } from './helpers.js';
import { BAGH_CHAL_TIGER_WIN } from './lines.js';
import { freePort, postgresForFile } from './multinode-helpers.js';

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

describe('a node started while PostgreSQL is away', () => {
  it('waits for it and comes up when it is back; a database that answers no fails at once', async () => {
    const url = new URL(await freshDatabase());
    const target = Number(url.port);
    const port = await freePort();
    url.port = String(port);
    const starting = fixture.server({ config: { DATABASE_URL: url.toString() } });
    // Nothing listens on the port for a while: each connection is refused.
    await sleep(1500);
    const forwarder = createServer((socket) => {
      const upstream = connect(target, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(port, '127.0.0.1', resolve));
    fixture.defer(() => new Promise<void>((resolve) => forwarder.close(() => resolve())));
    const server = await starting;
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await createRoom(server.url, { variant: 'bagh-chal', side: 'goat' })).roomId).toBeTruthy();
    // A database that does not exist is an answer, not an outage: the start fails, not waited for.
    url.pathname = '/no_such_database';
    const refused = await fixture.server({ config: { DATABASE_URL: url.toString() } }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(String(refused)).toMatch(/no_such_database/);
    expect(databaseUnreachable(refused)).toBe(false);
  });
});

describe('two nodes on one PostgreSQL without Redis (a rolling deploy without REDIS_URL)', () => {
  it('judges each command on its cache, and a move the other node stored is caught up, not lost', async () => {
    const url = await freshDatabase();
    const a = await fixture.server({ config: { DATABASE_URL: url } });
    const b = await fixture.server({ config: { DATABASE_URL: url } });
    const { roomId, goat, tiger, joined, claimed } = await fixture.seat(a.url, {}, { tiger: b.url });
    expect([joined.ok, claimed.ok]).toEqual([true, true]);
    // Neither node hears the other: each move is judged on a cache one version behind.
    await playMoves({ roomId, goat, tiger }, BAGH_CHAL_TIGER_WIN.slice(0, 6));
    for (const node of [a, b]) {
      expect((await getSnapshot(node.url, roomId)).moves).toEqual(BAGH_CHAL_TIGER_WIN.slice(0, 6));
    }
    // A node met the other's change at its append: counted for the operator.
    const conflicts = async (node: typeof a) =>
      (await node.app.metrics.versionConflicts.get()).values.reduce((sum, v) => sum + v.value, 0);
    expect((await conflicts(a)) + (await conflicts(b))).toBeGreaterThan(0);
  });
});

describe('a change stored after its call timed out', () => {
  it('reaches the room: the next command finds it in the store and broadcasts it', async () => {
    const url = await freshDatabase();
    const store = await openPostgresStorage(url);
    // The first move's append commits, then answers only after the command was answered
    // UNAVAILABLE (a slow database: the call is not cancelled, its transaction goes through).
    let slowAppends = 0;
    const storage: typeof store = {
      ...store,
      async append(...args) {
        const appended = await store.append(...args);
        if (slowAppends-- > 0) await sleep(900);
        return appended;
      },
    };
    const server = await fixture.server({
      config: { DATABASE_URL: url },
      // Timeouts long enough for a loaded machine's set-up; the slow append outlasts this one.
      options: { storage, storeTimeoutMs: 500, botWorkers: 0 },
    });
    const { roomId, goat, tiger, watcher } = await fixture.table(server.url);
    slowAppends = 1;
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({
      ok: false,
      error: { code: 'UNAVAILABLE' },
    });
    await sleep(1300); // committed meanwhile, and the breaker (open 1 s after the timeout) tries again
    // The page tries again, as it does after UNAVAILABLE: the move is in the store already, and
    // the same move again is acked with the version it was stored at.
    const again = await goat.request('move', { roomId, move: 'G@c3', ply: 0 });
    expect(again).toMatchObject({ ok: true });
    for (const client of [tiger, watcher, goat]) {
      expect(await client.waitFor((e) => e.type === 'move', 2000)).toMatchObject({ move: 'G@c3' });
    }
    // And the game goes on from it.
    const answer = await tiger.request('move', { roomId, move: 'a1-b1', ply: 1 });
    expect(answer).toMatchObject({ ok: true });
    await watcher.waitForVersion(answer.version);
    expect(watcher.events.filter((e) => e.type === 'move').map((e) => e.move)).toEqual(['G@c3', 'a1-b1']);
    expect((await getSnapshot(server.url, roomId)).moves).toEqual(['G@c3', 'a1-b1']);
  });
});

/**
 * A room on PostgreSQL whose goat has played G@c3 while another session held the room's row: the
 * move's append waits for the lock, its call times out (answered UNAVAILABLE), and the statement
 * goes on waiting until `locker` commits.
 */
async function moveBehindALock() {
  const url = await freshDatabase();
  const server = await fixture.server({
    config: { DATABASE_URL: url },
    // The default timeout: a chat's append, queued behind the lock, has room to finish.
    options: { storeTimeoutMs: 1000, botWorkers: 0 },
  });
  const table = await fixture.table(server.url);
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  fixture.defer(() => locker.end());
  await locker.query('BEGIN');
  await locker.query('SELECT 1 FROM room WHERE id = $1 FOR UPDATE', [table.roomId]);
  expect(await table.goat.request('move', { roomId: table.roomId, move: 'G@c3', ply: 0 })).toMatchObject({
    ok: false,
    error: { code: 'UNAVAILABLE' },
  });
  return { ...table, server, locker };
}

describe('a change that commits after the next command read the store', () => {
  it('is broadcast when it lands: the room keeps it until the store moves past its version', async () => {
    const { server, roomId, tiger, watcher, locker } = await moveBehindALock();
    await sleep(1300); // the breaker tries again
    // The next command reads the store while the move still waits (the version has not moved);
    // then the lock goes, the move commits first and the chat is judged after it.
    const chat = watcher.request('chat:send', { roomId, channel: 'spectators', text: 'hi' });
    await sleep(100);
    await locker.query('COMMIT');
    expect(await chat).toMatchObject({ ok: true });
    for (const client of [tiger, watcher]) {
      expect(await client.waitFor((e) => e.type === 'move', 2000)).toMatchObject({ move: 'G@c3' });
    }
    expect((await getSnapshot(server.url, roomId)).moves).toEqual(['G@c3']);
  });

  it('is broadcast when it lands though no command follows: the room reads the store again by itself', async () => {
    const { goat, tiger, watcher, locker } = await moveBehindALock();
    // The lock outlasts a check or two (the store still at the version before), then goes: the
    // move commits, and nobody sends anything more.
    await sleep(1500);
    await locker.query('COMMIT');
    for (const client of [tiger, watcher, goat]) {
      expect(await client.waitFor((e) => e.type === 'move', 10_000)).toMatchObject({ move: 'G@c3' });
    }
    expect(watcher.events.filter((e) => e.type === 'move')).toHaveLength(1);
  });
});

describe('a node started with REDIS_URL alone', () => {
  it('refuses to start, saying why (run after pnpm build)', async () => {
    await expect(startServerProcess({ REDIS_URL: 'redis://127.0.0.1:1' })).rejects.toThrow(
      /exited \(2\)[\s\S]*REDIS_URL needs DATABASE_URL: several nodes keep their rooms in PostgreSQL/,
    );
  });
});
