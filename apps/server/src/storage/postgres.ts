/**
 * The system of record of a multi-node deployment (DATABASE_URL): rooms and their change log in
 * PostgreSQL, through a `pg` Pool. The schema is kysely migrations (./postgres-migrations.ts),
 * run at open under an advisory lock so that nodes starting together migrate once.
 *
 * Two nodes can never both apply a change at the same room version: `append` is one statement
 * that moves `room.version` on only where it still is the expected one (the row lock orders
 * racing writers; the loser's condition no longer holds), and `room_change` has the primary key
 * (room_id, version). It resolves once the statement committed, with synchronous_commit on for
 * every connection of the pool: an acknowledged change is on the database's disk.
 *
 * The statements of the hot paths are named (prepared once per connection).
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrations } from './postgres-migrations.js';
import type { ChangesSince, GameRow, RoomRecord, RoomStorage, StoredChange, StoredData } from './types.js';
import {
  assertContiguous,
  GAME_COLUMNS,
  gameOf,
  gameValues,
  listGamesSql,
  roomColumns,
  summaryOf,
} from './types.js';

export interface PostgresStorageOptions {
  /** Connections per node (default 10). */
  readonly poolSize?: number;
  /** Called when an idle connection fails (the pool replaces it). */
  readonly onError?: (error: Error) => void;
}

export interface PostgresStorage extends RoomStorage {
  currentVersion(roomId: string): Promise<number | null>;
  changesSince(roomId: string, version: number): Promise<ChangesSince | null>;
  indexLive(roomId: string, version: number, entry: StoredData | null, at: number): Promise<void>;
  listLive(limit: number): Promise<StoredData[]>;
}

/** Any 64-bit key of our own: the nodes of one database migrate one at a time. */
const MIGRATION_LOCK = 0x62616768; // 'bagh'

/** An ended room's tombstone and an idle room's entry leave the live list after a day. */
const LIVE_KEPT_MS = 86_400_000;

const INSERT_ROOM = `
INSERT INTO room (id, created_at, init, version) VALUES ($1, $2, $3, $4)
ON CONFLICT (id) DO NOTHING`;

const SELECT_ROOM = `
SELECT created_at, init, version,
  (SELECT coalesce(json_agg(json_build_object('version', c.version, 'kind', c.kind, 'data', c.data)
                            ORDER BY c.version), '[]')
     FROM room_change c WHERE c.room_id = r.id) AS changes
FROM room r WHERE r.id = $1`;

// One statement, so the version and the changes are read at one instant.
const CHANGES_SINCE = `
SELECT version,
  (SELECT coalesce(json_agg(json_build_object('version', c.version, 'kind', c.kind, 'data', c.data)
                            ORDER BY c.version), '[]')
     FROM room_change c WHERE c.room_id = r.id AND c.version > $2) AS changes
FROM room r WHERE r.id = $1`;

const SELECT_VERSION = 'SELECT version FROM room WHERE id = $1';

/**
 * The append: its changes are inserted only if the version moved on (joined with `bumped`); one
 * statement, one transaction. A racing writer waits for the row lock, then finds the version
 * changed. `$(n)` numbers its parameters; `also` adds statements that run only if it applies.
 */
const appendSql = ($: (n: number) => string, also = '') => `
WITH bumped AS (
  UPDATE room SET version = ${$(3)} WHERE id = ${$(1)} AND version = ${$(2)} RETURNING id
), kept AS (
  INSERT INTO room_change (room_id, version, kind, data)
  SELECT bumped.id, c.version, c.kind, c.data::json
  FROM bumped, unnest(${$(4)}::int[], ${$(5)}::text[], ${$(6)}::text[]) AS c(version, kind, data)
)${also}
SELECT count(*)::int AS applied FROM bumped`;

const APPEND = appendSql((n) => `$${n}`);

// Typed: in INSERT … SELECT a parameter takes no type from its column.
const GAME_VALUES =
  '$1::text, $2::text, $3::text, $4::text, $5::text, $6::int, $7::text, $8::text, $9::json, $10::json, $11::bigint, $12::bigint';

// The append that gives a room its result archives the game in the same statement, only if the
// version moved on. Parameters: the game's ($1–$12), then the append's, shifted by 12.
const APPEND_FINISHED = appendSql(
  (n) => `$${n + 12}`,
  `, archived AS (
  INSERT INTO game (${GAME_COLUMNS}) SELECT ${GAME_VALUES} FROM bumped
  ON CONFLICT (room_id) DO NOTHING
)`,
);

const INSERT_GAME = `
INSERT INTO game (${GAME_COLUMNS}) VALUES (${GAME_VALUES}) ON CONFLICT (room_id) DO NOTHING`;

const SELECT_GAME = 'SELECT * FROM game WHERE room_id = $1';

// An update not newer (by version) than the one indexed changes nothing; `entry` null is a
// tombstone (the room has a result), so a late older update cannot list it again.
const INDEX_LIVE = `
INSERT INTO live_room (room_id, version, active_at, entry) VALUES ($1, $2, $3, $4)
ON CONFLICT (room_id) DO UPDATE
  SET version = excluded.version, active_at = excluded.active_at, entry = excluded.entry
  WHERE live_room.version < excluded.version`;

const LIST_LIVE = `
SELECT entry FROM live_room WHERE entry IS NOT NULL ORDER BY active_at DESC LIMIT $1`;

const FORGET_LIVE = 'DELETE FROM live_room WHERE active_at < $1';

// A read succeeds on a read-only (standby, full disk) database; the health check writes, as a move would.
export const TIMED_ROOMS_SQL = `
SELECT id FROM room
WHERE created_at >= $1 AND json_typeof(init->'clock') = 'object'
  AND EXISTS (SELECT 1 FROM room_change c WHERE c.room_id = room.id AND c.kind = 'move')
  AND NOT EXISTS (SELECT 1 FROM game g WHERE g.room_id = room.id)
ORDER BY created_at LIMIT $2`;

const TOUCH_HEALTH = `
INSERT INTO health (id, at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = excluded.at`;

interface ChangeRow {
  version: number;
  kind: string;
  data: StoredData;
}

/** The pool's settings (exported for a test: they are the durability promise). */
export function poolConfig(url: string, options: PostgresStorageOptions = {}): pg.PoolConfig {
  return {
    connectionString: url,
    // At least 2: migrating holds one connection for the lock while kysely uses another.
    max: Math.max(2, options.poolSize ?? 10),
    // A database that does not answer: a connection attempt or a query fails instead of
    // waiting (the store's circuit breaker answers UNAVAILABLE sooner), and the pool drops the
    // connection it hung on.
    connectionTimeoutMillis: 2000,
    query_timeout: 5000,
    keepAlive: true,
    application_name: 'bagh-server',
    // Set per connection, whatever the server's or database's default: a commit returns once it
    // is durable.
    options: '-c synchronous_commit=on',
  };
}

/**
 * Whether `error` (or what caused it) says the database could not be reached or was not ready —
 * a refused or lost connection, a name not resolved yet, a server starting or shutting down —
 * rather than that it answered no.
 */
export function databaseUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (/Connection terminated|connection timeout/i.test(cause.message)) return true;
    cause = cause.cause;
  }
  return false;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT', // a unix socket not there yet: the server is starting
  '53300', // too_many_connections: the other nodes' pools are full for now
  '57P01', // admin_shutdown
  '57P03', // cannot_connect_now: starting up
]);

/** Connects, migrates the schema to the latest (one node at a time) and returns the store. */
export async function openPostgresStorage(
  url: string,
  options: PostgresStorageOptions = {},
): Promise<PostgresStorage> {
  const pool = new pg.Pool(poolConfig(url, options));
  pool.on('error', (error) => options.onError?.(error));
  // A connection that dies while checked out (kysely's, during migrations) rejects its queries;
  // without a listener its 'error' event would also be an uncaught exception.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const run = <R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) =>
    pool.query<R>({ name, text, values });
  let lastForget = 0;
  const listings = new Map<string, string>();
  let closed = false;

  const storage: PostgresStorage = {
    async createRoom(record) {
      if (record.changes.length > 0) throw new Error('createRoom takes a room without changes');
      return (await run('bagh_create', INSERT_ROOM, roomColumns(record))).rowCount === 1;
    },
    async loadRoom(roomId) {
      const { rows } = await run<{
        created_at: string;
        init: StoredData;
        version: number;
        changes: ChangeRow[];
      }>('bagh_load', SELECT_ROOM, [roomId]);
      const row = rows[0];
      if (!row) return null;
      return {
        roomId,
        createdAt: Number(row.created_at), // bigint arrives as a string
        init: row.init,
        version: row.version,
        changes: row.changes,
      } satisfies RoomRecord;
    },
    async append(roomId, expectedVersion, changes, finished) {
      assertContiguous(expectedVersion, changes);
      const last = changes[changes.length - 1];
      if (!last) return { ok: true };
      const kept = changes.filter(
        (change): change is StoredChange & { data: StoredData } => change.data !== null,
      );
      const values = [
        roomId,
        expectedVersion,
        last.version,
        kept.map((change) => change.version),
        kept.map((change) => change.kind),
        kept.map((change) => JSON.stringify(change.data)),
      ];
      const { rows } = finished
        ? await run<{ applied: number }>('bagh_append_finished', APPEND_FINISHED, [
            ...gameValues(finished),
            ...values,
          ])
        : await run<{ applied: number }>('bagh_append', APPEND, values);
      if (rows[0]?.applied === 1) return { ok: true };
      // Read after the statement: the version the winning writer committed.
      return { ok: false, storedVersion: await storage.currentVersion(roomId) };
    },
    async currentVersion(roomId) {
      const { rows } = await run<{ version: number }>('bagh_version', SELECT_VERSION, [roomId]);
      return rows[0]?.version ?? null;
    },
    async changesSince(roomId, version) {
      const { rows } = await run<{ version: number; changes: ChangeRow[] }>('bagh_since', CHANGES_SINCE, [
        roomId,
        version,
      ]);
      const row = rows[0];
      return row ? { version: row.version, changes: row.changes } : null;
    },
    async indexLive(roomId, version, entry, at) {
      const now = Math.round(at);
      await run('bagh_index_live', INDEX_LIVE, [
        roomId,
        version,
        now,
        entry === null ? null : JSON.stringify(entry),
      ]);
      // Now and then (not on every move): the list keeps no entry older than a day.
      if (now - lastForget > 60_000) {
        lastForget = now;
        await run('bagh_forget_live', FORGET_LIVE, [now - LIVE_KEPT_MS]);
      }
    },
    async listLive(limit) {
      const { rows } = await run<{ entry: StoredData }>('bagh_list_live', LIST_LIVE, [limit]);
      return rows.map((row) => row.entry);
    },
    async archiveGame(game) {
      await run('bagh_archive', INSERT_GAME, gameValues(game));
    },
    async loadGame(roomId) {
      const { rows } = await run<GameRow>('bagh_load_game', SELECT_GAME, [roomId]);
      return rows[0] ? gameOf(rows[0]) : null;
    },
    async timedRoomsInPlay(createdSince, limit) {
      const { rows } = await run<{ id: string }>('bagh_timed_rooms', TIMED_ROOMS_SQL, [createdSince, limit]);
      return rows.map((row) => row.id);
    },
    async listGames(query) {
      const { text, values } = listGamesSql(query, (n) => `$${n}`);
      // One name per combination of filters: each is prepared once per connection.
      const name = listings.get(text) ?? `bagh_games_${listings.size}`;
      listings.set(text, name);
      const { rows } = await run<GameRow>(name, text, values);
      return rows.map(summaryOf);
    },
    async check() {
      await run('bagh_health', TOUCH_HEALTH, [Date.now()]);
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy(); // ends the pool
    },
  };
  return storage;
}

/**
 * kysely's Migrator, under a session advisory lock of our own held on one connection for the
 * whole run: kysely creates its own bookkeeping tables before taking its lock, which two nodes
 * starting at once could both try. The others wait, then find nothing left to do.
 */
async function migrate(db: Kysely<unknown>): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`.execute(connection);
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      const { error, results } = await migrator.migrateToLatest();
      const failed = results?.find((result) => result.status === 'Error');
      if (error) {
        throw new Error(`migrating the database failed${failed ? ` at ${failed.migrationName}` : ''}`, {
          cause: error,
        });
      }
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.execute(connection);
    }
  });
}
