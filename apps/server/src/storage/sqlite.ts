/** The default store: one embedded SQLite file (WAL); a change is committed before append resolves. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../config.js';
import {
  type AppendResult,
  type ArchivedGame,
  assertContiguous,
  GAME_COLUMNS,
  type GameRow,
  gameOf,
  gameValues,
  listGamesSql,
  type RoomRecord,
  type RoomStorage,
  roomColumns,
  type StoredChange,
  type StoredData,
  summaryOf,
} from './types.js';

const SCHEMA_VERSION = 3;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS room (
  id          TEXT PRIMARY KEY,
  created_at  INTEGER NOT NULL,
  init        TEXT NOT NULL,
  version     INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS room_change (
  room_id  TEXT NOT NULL REFERENCES room(id),
  version  INTEGER NOT NULL,
  kind     TEXT NOT NULL,
  data     TEXT NOT NULL,
  PRIMARY KEY (room_id, version)
) WITHOUT ROWID;
-- The timed games a start resumes are found by their room's age, not by a scan of every room
-- ever kept (schema 3 still: a server before this index reads the file the same).
CREATE INDEX IF NOT EXISTS room_created_at ON room (created_at);
-- 3: the archive of finished games, one row each (a rowid table: its rows are hundreds of bytes).
CREATE TABLE IF NOT EXISTS game (
  room_id      TEXT PRIMARY KEY,
  variant      TEXT NOT NULL,
  options      TEXT NOT NULL,
  start        TEXT,
  moves        TEXT NOT NULL,
  plies        INTEGER NOT NULL,
  winner       TEXT,
  reason       TEXT NOT NULL,
  clock        TEXT,
  bot          TEXT,
  started_at   INTEGER NOT NULL,
  finished_at  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS game_finished_at ON game (finished_at, room_id);
CREATE TABLE IF NOT EXISTS health (
  id  INTEGER PRIMARY KEY CHECK (id = 1),
  at  INTEGER NOT NULL
);
`;

/** The timed rooms in play created since (?), oldest first, at most (?). */
export const TIMED_ROOMS_SQL = `
SELECT id FROM room
WHERE created_at >= ? AND json_type(init, '$.clock') = 'object'
  AND EXISTS (SELECT 1 FROM room_change c WHERE c.room_id = room.id AND c.kind = 'move')
  AND NOT EXISTS (SELECT 1 FROM game g WHERE g.room_id = room.id)
ORDER BY created_at LIMIT ?`;

interface RoomRow {
  id: string;
  created_at: number;
  init: string;
  version: number;
}

/** How long a store call waits for another connection's write lock (the schema, at start: 5 s). */
const SQLITE_BUSY_MS = 250;

/**
 * Whether opening the file failed in a way that may pass with no change of configuration, so a
 * start waits for it: the disk full, the folder not writable (yet), an I/O error, the file locked
 * by another process. A folder that is a file, a file that is not a database, or a newer schema
 * stay as they are.
 */
export function sqliteMayHeal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return PASSING_FS_CODES.has(code) || /^SQLITE_(CANTOPEN|FULL|IOERR|READONLY|BUSY|LOCKED|PERM)/.test(code);
}

const PASSING_FS_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EIO', 'EBUSY']);

/** Makes the file's folder; one that can never be made (a file is in the way) is a ConfigError. */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOTDIR' || code === 'EEXIST') {
      throw new ConfigError(
        `${dir} cannot be the data folder: it, or a folder above it, is a file (DATA_DIR)`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

/** The file opened at the latest schema; on a failure no connection is left open (a start tries again). */
function openDatabase(file: string): Database.Database {
  makeFolder(dirname(file));
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a committed transaction survives a process crash (kill -9); only an OS
    // crash or power loss may lose the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > SCHEMA_VERSION) {
      throw new Error(`${file} has schema ${current}; this server knows up to ${SCHEMA_VERSION}`);
    }
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    // Each call blocks the event loop while it waits for a write lock another connection holds (a
    // backup, a second process on the file): at most this long, then it fails as the store away.
    db.pragma(`busy_timeout = ${SQLITE_BUSY_MS}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function openSqliteStorage(file: string): RoomStorage {
  const db = openDatabase(file);

  const insertRoom = db.prepare<[string, number, string, number]>(
    'INSERT OR IGNORE INTO room (id, created_at, init, version) VALUES (?, ?, ?, ?)',
  );
  const selectRoom = db.prepare<[string], RoomRow>('SELECT * FROM room WHERE id = ?');
  const selectChanges = db.prepare<[string], { version: number; kind: string; data: string }>(
    'SELECT version, kind, data FROM room_change WHERE room_id = ? ORDER BY version',
  );
  const timedRooms = db.prepare<[number, number], { id: string }>(TIMED_ROOMS_SQL);
  const selectRoomVersion = db.prepare<[string], { version: number }>(
    'SELECT version FROM room WHERE id = ?',
  );
  const selectChangesAfter = db.prepare<[string, number], { version: number; kind: string; data: string }>(
    'SELECT version, kind, data FROM room_change WHERE room_id = ? AND version > ? ORDER BY version',
  );
  const changesSinceTx = db.transaction((roomId: string, version: number) => {
    const row = selectRoomVersion.get(roomId);
    if (!row) return null;
    return { version: row.version, changes: selectChangesAfter.all(roomId, version) };
  });
  const bumpVersion = db.prepare<[number, string, number]>(
    'UPDATE room SET version = ? WHERE id = ? AND version = ?',
  );
  const selectVersion = db.prepare<[string], { version: number }>('SELECT version FROM room WHERE id = ?');
  // A read succeeds on a full disk; the health check writes, as a move would.
  const touchHealth = db.prepare<[number]>(
    'INSERT INTO health (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at',
  );
  const insertChange = db.prepare<[string, number, string, string]>(
    'INSERT INTO room_change (room_id, version, kind, data) VALUES (?, ?, ?, ?)',
  );

  const insertGame = db.prepare<(string | number | null)[]>(
    `INSERT OR IGNORE INTO game (${GAME_COLUMNS}) VALUES (${GAME_COLUMNS.split(',').fill('?').join(', ')})`,
  );
  const selectGame = db.prepare<[string], GameRow>('SELECT * FROM game WHERE room_id = ?');
  // One prepared statement per combination of the listing's filters.
  const listings = new Map<string, Database.Statement<(string | number)[], GameRow>>();

  const appendTx = db.transaction(
    (
      roomId: string,
      expectedVersion: number,
      changes: readonly StoredChange[],
      finished: ArchivedGame | undefined,
    ): AppendResult => {
      const last = changes[changes.length - 1];
      if (!last) return { ok: true };
      if (bumpVersion.run(last.version, roomId, expectedVersion).changes !== 1) {
        return { ok: false, storedVersion: selectVersion.get(roomId)?.version ?? null };
      }
      for (const change of changes) {
        if (change.data !== null)
          insertChange.run(roomId, change.version, change.kind, JSON.stringify(change.data));
      }
      if (finished) insertGame.run(...gameValues(finished));
      return { ok: true };
    },
  );

  let closed = false;
  return {
    async createRoom(record) {
      return insertRoom.run(...roomColumns(record)).changes === 1;
    },
    async loadRoom(roomId) {
      const row = selectRoom.get(roomId);
      if (!row) return null;
      return {
        roomId: row.id,
        createdAt: row.created_at,
        init: JSON.parse(row.init) as StoredData,
        version: row.version,
        changes: selectChanges.all(roomId).map((c) => ({
          version: c.version,
          kind: c.kind,
          data: JSON.parse(c.data) as StoredData,
        })),
      } satisfies RoomRecord;
    },
    async append(roomId, expectedVersion, changes, finished) {
      assertContiguous(expectedVersion, changes);
      return appendTx.immediate(roomId, expectedVersion, changes, finished);
    },
    async archiveGame(game) {
      insertGame.run(...gameValues(game));
    },
    async loadGame(roomId) {
      const row = selectGame.get(roomId);
      return row ? gameOf(row) : null;
    },
    async timedRoomsInPlay(createdSince, limit) {
      return timedRooms.all(createdSince, limit).map((row) => row.id);
    },
    async listGames(query) {
      const { text, values } = listGamesSql(query, () => '?');
      let statement = listings.get(text);
      if (!statement) {
        statement = db.prepare<(string | number)[], GameRow>(text);
        listings.set(text, statement);
      }
      return statement.all(...values).map(summaryOf);
    },
    async changesSince(roomId, version) {
      const found = changesSinceTx(roomId, version);
      if (!found) return null;
      return {
        version: found.version,
        changes: found.changes.map((c) => ({
          version: c.version,
          kind: c.kind,
          data: JSON.parse(c.data) as StoredData,
        })),
      };
    },
    async check() {
      touchHealth.run(Date.now());
    },
    async close() {
      if (closed) return;
      closed = true;
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}
