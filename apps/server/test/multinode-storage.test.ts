/** RedisStorage against a real redis-server: the same contract as SQLite, atomic across clients. */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStorage, type RedisStorage } from '../src/storage/redis.js';
import type { RoomRecord } from '../src/storage/types.js';
import { type RedisProcess, startRedis } from './multinode-helpers.js';

let redis: RedisProcess;
let a: RedisStorage;
let b: RedisStorage;
beforeAll(async () => {
  redis = await startRedis();
  a = await openRedisStorage(redis.url);
  b = await openRedisStorage(redis.url);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await redis?.stop();
});

let next = 0;
const record = (): RoomRecord => ({
  roomId: `room${++next}`,
  createdAt: 1_700_000_000_000 + next,
  init: { variant: 'bagh-chal', nested: { list: [1, 2, 3] } },
  version: 0,
  changes: [],
});
const move = (version: number, text: string) => ({ version, kind: 'move', data: { move: text } });
const presence = (version: number) => ({ version, kind: 'presence', data: null });

describe('RedisStorage', () => {
  it('creates a room once and loads it back', async () => {
    const room = record();
    expect(await a.createRoom(room)).toBe(true);
    expect(await b.createRoom({ ...room, createdAt: 1 })).toBe(false);
    expect(await b.loadRoom(room.roomId)).toEqual(room);
    expect(await a.loadRoom('nope')).toBeNull();
    expect(await a.currentVersion('nope')).toBeNull();
  });

  it('appends in order, keeps only changes with data, bumps the version for all', async () => {
    const room = record();
    await a.createRoom(room);
    expect(await a.append(room.roomId, 0, [presence(1), move(2, 'G@c3')])).toEqual({ ok: true });
    expect(await b.append(room.roomId, 2, [move(3, 'a1-b1')])).toEqual({ ok: true });
    expect(await a.append(room.roomId, 3, [])).toEqual({ ok: true });
    expect(await b.currentVersion(room.roomId)).toBe(3);
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

  it('reloads its scripts after Redis forgot them (SCRIPT FLUSH, restart)', async () => {
    const room = record();
    await a.createRoom(room);
    const admin = createClient({ url: redis.url });
    await admin.connect();
    await admin.scriptFlush();
    await admin.close();
    expect(await a.append(room.roomId, 0, [move(1, 'G@c3')])).toEqual({ ok: true });
    expect(await a.createRoom(record())).toBe(true);
  });

  it('answers the health check', async () => {
    await expect(a.check()).resolves.toBeUndefined();
  });

  it('hands out the changes after a version (changesSince), walking back past long lists', async () => {
    const room = record();
    await a.createRoom(room);
    // 80 versions: every third without data, so versions and list positions differ.
    let version = 0;
    const kept: ReturnType<typeof move>[] = [];
    for (let i = 0; i < 80; i++) {
      version++;
      const change = version % 3 === 0 ? presence(version) : move(version, `m${version}`);
      expect(await a.append(room.roomId, version - 1, [change])).toEqual({ ok: true });
      if (change.data !== null) kept.push(change as ReturnType<typeof move>);
    }
    for (const since of [0, 1, 2, 3, 40, 45, 78, 79]) {
      expect(await b.changesSince(room.roomId, since)).toEqual({
        version: 80,
        changes: kept.filter((c) => c.version > since),
      });
    }
    expect(await b.changesSince(room.roomId, 80)).toEqual({ version: 80, changes: [] });
    expect(await b.changesSince('unknown', 0)).toBeNull();
  });

  it('indexes public rooms in play across clients; an older update never undoes a newer one', async () => {
    const entry = (id: string, moves: number) => ({ roomId: id, moves });
    const now = Date.now();
    await a.indexLive('live1', 0, entry('live1', 0), now);
    await b.indexLive('live2', 3, entry('live2', 2), now + 1);
    expect(await a.listLive(10)).toEqual([entry('live2', 2), entry('live1', 0)]);
    await a.indexLive('live1', 4, entry('live1', 3), now + 2);
    await b.indexLive('live1', 2, entry('live1', 1), now + 3); // late and older: ignored
    expect(await b.listLive(10)).toEqual([entry('live1', 3), entry('live2', 2)]);
    await a.indexLive('live2', 5, null, now + 4); // a result: unlisted
    await b.indexLive('live2', 4, entry('live2', 3), now + 5); // older than the result: ignored
    expect(await a.listLive(10)).toEqual([entry('live1', 3)]);
  });
});

describe('RedisStorage with a room time to live', () => {
  let expiring: RedisStorage;
  let admin: ReturnType<typeof createClient>;
  beforeAll(async () => {
    expiring = await openRedisStorage(redis.url, { prefix: 'ttl:', roomTtlMs: 60_000 });
    admin = createClient({ url: redis.url });
    await admin.connect();
  });
  afterAll(async () => {
    await expiring?.close();
    await admin?.close();
  });
  const ttlOf = (roomId: string) =>
    Promise.all([admin.pTTL(`ttl:{${roomId}}:room`), admin.pTTL(`ttl:{${roomId}}:changes`)]);

  it('sets both keys to expire at creation and again at every change', async () => {
    const room = record();
    await expiring.createRoom(room);
    const [hashTtl] = await ttlOf(room.roomId);
    expect(hashTtl).toBeGreaterThan(50_000);
    expect(hashTtl).toBeLessThanOrEqual(60_000);
    await admin.pExpire(`ttl:{${room.roomId}}:room`, 5_000);
    await expiring.append(room.roomId, 0, [move(1, 'G@c3')]);
    for (const ttl of await ttlOf(room.roomId)) expect(ttl).toBeGreaterThan(50_000);
    await admin.pExpire(`ttl:{${room.roomId}}:room`, 5_000);
    await admin.pExpire(`ttl:{${room.roomId}}:changes`, 5_000);
    await expiring.append(room.roomId, 1, [presence(2)]); // no data, still a change
    for (const ttl of await ttlOf(room.roomId)) expect(ttl).toBeGreaterThan(50_000);
  });

  it('forgets a room once it has expired, as if it never was', async () => {
    const room = record();
    await expiring.createRoom(room);
    await expiring.append(room.roomId, 0, [move(1, 'G@c3')]);
    await admin.pExpire(`ttl:{${room.roomId}}:room`, 1);
    await admin.pExpire(`ttl:{${room.roomId}}:changes`, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await expiring.loadRoom(room.roomId)).toBeNull();
    expect(await expiring.append(room.roomId, 1, [move(2, 'a1-b1')])).toEqual({
      ok: false,
      storedVersion: null,
    });
  });

  it('keeps rooms forever without a time to live, also one written earlier with it', async () => {
    const room = record();
    await a.createRoom(room);
    await a.append(room.roomId, 0, [move(1, 'G@c3')]);
    expect(await admin.pTTL(`bagh:{${room.roomId}}:room`)).toBe(-1);
    expect(await admin.pTTL(`bagh:{${room.roomId}}:changes`)).toBe(-1);
    const earlier = record();
    await expiring.createRoom(earlier);
    await expiring.append(earlier.roomId, 0, [move(1, 'G@c3')]);
    const forever = await openRedisStorage(redis.url, { prefix: 'ttl:' });
    await forever.append(earlier.roomId, 1, [move(2, 'a1-b1')]);
    await forever.close();
    expect(await ttlOf(earlier.roomId)).toEqual([-1, -1]);
  });
});

describe('REDIS_URL and TRUST_PROXY in the config', () => {
  it('parses a redis URL and refuses anything else, naming the variable', async () => {
    const { loadConfig } = await import('../src/config.js');
    expect(loadConfig({}).REDIS_URL).toBeUndefined();
    expect(loadConfig({ REDIS_URL: '' }).REDIS_URL).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://redis:6379' }).REDIS_URL).toBe('redis://redis:6379');
    expect(loadConfig({ REDIS_URL: 'rediss://user:pw@host:6380/2' }).REDIS_URL).toBe(
      'rediss://user:pw@host:6380/2',
    );
    expect(() => loadConfig({ REDIS_URL: 'http://localhost:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ REDIS_ROOM_TTL_DAYS: '0' }).REDIS_ROOM_TTL_DAYS).toBe(0);
    expect(() => loadConfig({ REDIS_ROOM_TTL_DAYS: '1.5' })).toThrow(/REDIS_ROOM_TTL_DAYS/);
  });
});
