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
  });
});
