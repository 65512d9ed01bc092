/**
 * The shared store for several nodes (REDIS_URL): the same version-checked change log as SQLite,
 * kept in Redis. Per room, a hash `<prefix>{<id>}:room` (createdAt, init, version) and a list
 * `<prefix>{<id>}:changes` of the changes with data, in order (the `{id}` hash tag keeps both on
 * one slot, should the Redis be a cluster). `append` checks the expected version and writes in
 * one Lua script, which Redis runs atomically: two nodes can never both apply a change at the
 * same version, whatever their processes do.
 *
 * Durability is Redis's: run it with `appendonly yes` (docker-compose.yml does) so an
 * acknowledged move survives a Redis restart. Memory is bounded by `roomTtlMs`: a room's keys
 * expire that long after its last change (each write sets the expiry again).
 */
import { createClient } from 'redis';
import {
  type AppendResult,
  assertContiguous,
  type ChangesSince,
  type RoomRecord,
  type RoomStorage,
  type StoredChange,
  type StoredData,
} from './types.js';

/**
 * Lua: (re)sets the expiry of the room's two keys to ARGV[ttlArg] ms; 0 keeps them forever, also
 * a room written earlier with a time to live.
 */
const KEEP_FOR = (ttlArg: number) => `
local ttl = tonumber(ARGV[${ttlArg}])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
else
  redis.call('PERSIST', KEYS[1])
  redis.call('PERSIST', KEYS[2])
end`;

/**
 * KEYS[1] room hash, KEYS[2] change list; ARGV[1] expected version, ARGV[2] new version,
 * ARGV[3] the room's time to live (ms, 0: forever), ARGV[4..] the changes with data (JSON).
 * Returns -1 when applied, else the stored version (-2 for an unknown room).
 */
const APPEND_SCRIPT = `
local stored = redis.call('HGET', KEYS[1], 'version')
if not stored then return -2 end
if stored ~= ARGV[1] then return tonumber(stored) end
redis.call('HSET', KEYS[1], 'version', ARGV[2])
if #ARGV > 3 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 4)) end
${KEEP_FOR(3)}
return -1
`;

/**
 * KEYS[1] room hash, KEYS[2] change list; ARGV[1] the version a node holds. Returns
 * {1, stored version, the changes after ARGV[1]...}, {1, version} when nothing is missing, nil
 * for an unknown room, {0} when a change's version cannot be read (then: a full load). Each
 * change is JSON starting with its version (`{"v":12,`), so the list is walked from its end,
 * 32 at a time, to the first change at or below the known version: a node that is a few
 * changes behind reads a few changes.
 */
const CHANGES_SINCE_SCRIPT = `
local stored = redis.call('HGET', KEYS[1], 'version')
if not stored then return nil end
local since = tonumber(ARGV[1])
if tonumber(stored) <= since then return {1, stored} end
local start = 0
local hi = redis.call('LLEN', KEYS[2]) - 1
local found = false
while hi >= 0 and not found do
  local lo = math.max(0, hi - 31)
  local items = redis.call('LRANGE', KEYS[2], lo, hi)
  for j = #items, 1, -1 do
    local v = tonumber(string.match(items[j], '^{"v":(%d+),'))
    if not v then return {0} end
    if v <= since then
      start = lo + j
      found = true
      break
    end
  end
  hi = lo - 1
end
local out = redis.call('LRANGE', KEYS[2], start, -1)
table.insert(out, 1, stored)
table.insert(out, 1, 1)
return out
`;

/**
 * The live list: KEYS[1] sorted set roomId → last activity (ms), KEYS[2] hash roomId → entry
 * JSON (\`{"v":version,…}\`), KEYS[3] sorted set roomId → when it ended (tombstones, kept a day
 * so that a late, older update cannot list an ended room again). ARGV roomId, version, at, entry
 * JSON or '' (ended). An update not newer than the indexed one is ignored.
 */
const LIVE_SCRIPT = `
local held = redis.call('HGET', KEYS[2], ARGV[1])
if held then
  local v = tonumber(string.match(held, '^{"v":(%d+)'))
  if v and v >= tonumber(ARGV[2]) then return 0 end
end
local at = tonumber(ARGV[3])
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], '{"v":' .. ARGV[2] .. '}')
  redis.call('ZADD', KEYS[3], at, ARGV[1])
else
  redis.call('ZADD', KEYS[1], at, ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
end
local old = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', at - 86400000, 'LIMIT', 0, 100)
local idle = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', at - 86400000, 'LIMIT', 0, 100)
for _, id in ipairs(idle) do table.insert(old, id) end
for _, id in ipairs(old) do redis.call('HDEL', KEYS[2], id) end
if #old > 0 then
  redis.call('ZREM', KEYS[3], unpack(old))
  redis.call('ZREM', KEYS[1], unpack(old))
end
return 1
`;

/**
 * KEYS[1] room hash, KEYS[2] change list; ARGV createdAt, init, version, time to live (ms).
 * 1 when created, 0 when the id is taken.
 */
const CREATE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'createdAt', ARGV[1], 'init', ARGV[2], 'version', ARGV[3])
${KEEP_FOR(4)}
return 1
`;

export interface RedisStorageOptions {
  /** Prefix of every key (default `bagh:`), so several deployments can share one Redis. */
  readonly prefix?: string;
  /** Called when the connection reports an error (it reconnects by itself). */
  readonly onError?: (error: Error) => void;
  /** How long (ms) a room is kept after its last change; 0 (the default) keeps it forever. */
  readonly roomTtlMs?: number;
}

export interface RedisStorage extends RoomStorage {
  /** The version Redis holds for the room (one HGET), null for an unknown room. */
  currentVersion(roomId: string): Promise<number | null>;
  changesSince(roomId: string, version: number): Promise<ChangesSince | null>;
  indexLive(roomId: string, version: number, entry: StoredData | null, at: number): Promise<void>;
  listLive(limit: number): Promise<StoredData[]>;
}

/** Connects to `url` and returns the store; `close()` disconnects. */
export async function openRedisStorage(
  url: string,
  options: RedisStorageOptions = {},
): Promise<RedisStorage> {
  const prefix = options.prefix ?? 'bagh:';
  const roomTtl = String(Math.max(0, Math.round(options.roomTtlMs ?? 0)));
  const client = createClient({
    url,
    socket: { reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2000) },
    // While Redis is away a command fails at once (UNAVAILABLE) instead of waiting for it.
    disableOfflineQueue: true,
  });
  client.on('error', (error: Error) => options.onError?.(error));
  await client.connect();

  const roomKey = (roomId: string) => `${prefix}{${roomId}}:room`;
  const changesKey = (roomId: string) => `${prefix}{${roomId}}:changes`;
  // The live list spans rooms: its keys share one slot of their own.
  const liveKeys = [`${prefix}{live}:active`, `${prefix}{live}:entries`, `${prefix}{live}:ended`];
  const parseChange = (raw: string): StoredChange => {
    const change = JSON.parse(raw) as { v: number; k: string; d: StoredData };
    return { version: change.v, kind: change.k, data: change.d };
  };
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
  const storage: RedisStorage = {
    async createRoom(record) {
      if (record.changes.length > 0) throw new Error('createRoom takes a room without changes');
      const created = await run(
        CREATE_SCRIPT,
        [roomKey(record.roomId), changesKey(record.roomId)],
        [String(record.createdAt), JSON.stringify(record.init), String(record.version), roomTtl],
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
        changes: changes.map(parseChange),
      } satisfies RoomRecord;
    },
    async changesSince(roomId, version): Promise<ChangesSince | null> {
      const reply = (await run(
        CHANGES_SINCE_SCRIPT,
        [roomKey(roomId), changesKey(roomId)],
        [String(version)],
      )) as (string | number)[] | null;
      if (reply === null) return null;
      if (Number(reply[0]) !== 1) {
        // A change without a readable version: read the whole room instead.
        const record = await storage.loadRoom(roomId);
        if (!record) return null;
        return { version: record.version, changes: record.changes.filter((c) => c.version > version) };
      }
      return { version: Number(reply[1]), changes: reply.slice(2).map((raw) => parseChange(String(raw))) };
    },
    async indexLive(roomId, version, entry, at) {
      const json = entry === null ? '' : JSON.stringify({ v: version, e: entry });
      await run(LIVE_SCRIPT, liveKeys, [roomId, String(version), String(Math.round(at)), json]);
    },
    async listLive(limit) {
      const ids = await client.zRange(liveKeys[0]!, '+inf', '-inf', {
        BY: 'SCORE',
        REV: true,
        LIMIT: { offset: 0, count: limit },
      });
      if (ids.length === 0) return [];
      const entries = await client.hmGet(liveKeys[1]!, ids);
      const listed: StoredData[] = [];
      for (const raw of entries) {
        if (typeof raw !== 'string') continue;
        const parsed = JSON.parse(raw) as { e?: StoredData };
        if (parsed.e) listed.push(parsed.e);
      }
      return listed;
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
          [String(expectedVersion), String(last.version), roomTtl, ...kept],
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
  return storage;
}
