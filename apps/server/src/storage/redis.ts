/**
 * The shared store for several nodes (REDIS_URL): the same version-checked change log as SQLite,
 * kept in Redis. Per room, a hash `<prefix>{<id>}:room` (createdAt, init, version) and a list
 * `<prefix>{<id>}:changes` of the changes with data, in order (the `{id}` hash tag keeps both on
 * one slot, should the Redis be a cluster). `append` checks the expected version and writes in
 * one Lua script, which Redis runs atomically: two nodes can never both apply a change at the
 * same version, whatever their processes do.
 *
 * Durability is Redis's: run it with `appendonly yes` (docker-compose.yml does) so an
 * acknowledged move survives a Redis restart.
 */
import { createClient } from 'redis';
import {
  type AppendResult,
  assertContiguous,
  type RoomRecord,
  type RoomStorage,
  type StoredData,
} from './types.js';

/**
 * KEYS[1] room hash, KEYS[2] change list; ARGV[1] expected version, ARGV[2] new version,
 * ARGV[3..] the changes with data (JSON). Returns -1 when applied, else the stored version
 * (-2 for an unknown room).
 */
const APPEND_SCRIPT = `
local stored = redis.call('HGET', KEYS[1], 'version')
if not stored then return -2 end
if stored ~= ARGV[1] then return tonumber(stored) end
redis.call('HSET', KEYS[1], 'version', ARGV[2])
if #ARGV > 2 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 3)) end
return -1
`;

/** KEYS[1] room hash; ARGV createdAt, init, version. 1 when created, 0 when the id is taken. */
const CREATE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'createdAt', ARGV[1], 'init', ARGV[2], 'version', ARGV[3])
return 1
`;

export interface RedisStorageOptions {
  /** Prefix of every key (default `bagh:`), so several deployments can share one Redis. */
  readonly prefix?: string;
  /** Called when the connection reports an error (it reconnects by itself). */
  readonly onError?: (error: Error) => void;
}

export interface RedisStorage extends RoomStorage {
  /** The version Redis holds for the room (one HGET), null for an unknown room. */
  currentVersion(roomId: string): Promise<number | null>;
}

/** Connects to `url` and returns the store; `close()` disconnects. */
export async function openRedisStorage(
  url: string,
  options: RedisStorageOptions = {},
): Promise<RedisStorage> {
  const prefix = options.prefix ?? 'bagh:';
  const client = createClient({
    url,
    socket: { reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2000) },
  });
  client.on('error', (error: Error) => options.onError?.(error));
  await client.connect();

  const roomKey = (roomId: string) => `${prefix}{${roomId}}:room`;
  const changesKey = (roomId: string) => `${prefix}{${roomId}}:changes`;
  const scripts = new Map<string, string>();
  /** EVALSHA, loading the script once (again after a Redis restart: NOSCRIPT). */
  async function run(script: string, keys: string[], args: string[]): Promise<unknown> {
    let sha = scripts.get(script);
    if (sha === undefined) {
      sha = await client.scriptLoad(script);
      scripts.set(script, sha);
    }
    try {
      return await client.evalSha(sha, { keys, arguments: args });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      scripts.delete(script);
      return client.eval(script, { keys, arguments: args });
    }
  }

  let closed = false;
  return {
    async createRoom(record) {
      if (record.changes.length > 0) throw new Error('createRoom takes a room without changes');
      const created = await run(
        CREATE_SCRIPT,
        [roomKey(record.roomId)],
        [String(record.createdAt), JSON.stringify(record.init), String(record.version)],
      );
      return Number(created) === 1;
    },
    async loadRoom(roomId) {
      // One MULTI: the hash and the list are read at the same instant.
      const [room, changes] = (await client
        .multi()
        .hGetAll(roomKey(roomId))
        .lRange(changesKey(roomId), 0, -1)
        .exec()) as unknown as [Record<string, string>, string[]];
      if (!room || room.version === undefined) return null;
      return {
        roomId,
        createdAt: Number(room.createdAt),
        init: JSON.parse(room.init ?? '{}') as StoredData,
        version: Number(room.version),
        changes: changes.map((raw) => {
          const change = JSON.parse(raw) as { v: number; k: string; d: StoredData };
          return { version: change.v, kind: change.k, data: change.d };
        }),
      } satisfies RoomRecord;
    },
    async append(roomId, expectedVersion, changes): Promise<AppendResult> {
      assertContiguous(expectedVersion, changes);
      const last = changes[changes.length - 1];
      if (!last) return { ok: true };
      const kept = changes
        .filter((change) => change.data !== null)
        .map((change) => JSON.stringify({ v: change.version, k: change.kind, d: change.data }));
      const reply = Number(
        await run(
          APPEND_SCRIPT,
          [roomKey(roomId), changesKey(roomId)],
          [String(expectedVersion), String(last.version), ...kept],
        ),
      );
      if (reply === -1) return { ok: true };
      return { ok: false, storedVersion: reply === -2 ? null : reply };
    },
    async currentVersion(roomId) {
      const version = await client.hGet(roomKey(roomId), 'version');
      return version === null || version === undefined ? null : Number(version);
    },
    async check() {
      await client.ping();
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
