/** The default store: one embedded SQLite file (WAL); a change is committed before append resolves. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { OPTION_NAMES, type Options, type Side, VARIANTS, type Variant } from '@bagh/rules';
import Database from 'better-sqlite3';
import type { RoomRecord } from '../rooms/state.js';
import { type AppendResult, assertContiguous, type RoomStorage, type StoredChange } from './types.js';

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rooms (
  id          TEXT PRIMARY KEY,
  variant     TEXT NOT NULL,
  options     TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  version     INTEGER NOT NULL,
  tiger_hash  TEXT,
  goat_hash   TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS moves (
  room_id  TEXT NOT NULL REFERENCES rooms(id),
  ply      INTEGER NOT NULL,
  move     TEXT NOT NULL,
  version  INTEGER NOT NULL,
  PRIMARY KEY (room_id, ply)
) WITHOUT ROWID;
`;

interface RoomRow {
  id: string;
  variant: string;
  options: string;
  created_at: number;
  version: number;
  tiger_hash: string | null;
  goat_hash: string | null;
}

export function openSqliteStorage(file: string): RoomStorage {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
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

  const insertRoom = db.prepare(
    `INSERT OR IGNORE INTO rooms (id, variant, options, created_at, version, tiger_hash, goat_hash)
     VALUES (@id, @variant, @options, @created_at, @version, @tiger_hash, @goat_hash)`,
  );
  const selectRoom = db.prepare<[string], RoomRow>('SELECT * FROM rooms WHERE id = ?');
  const selectMoves = db.prepare<[string], { move: string; version: number }>(
    'SELECT move, version FROM moves WHERE room_id = ? ORDER BY ply',
  );
  const bumpVersion = db.prepare<[number, string, number]>(
    'UPDATE rooms SET version = ? WHERE id = ? AND version = ?',
  );
  const selectVersion = db.prepare<[string], { version: number }>('SELECT version FROM rooms WHERE id = ?');
  const insertMove = db.prepare<[string, number, string, number]>(
    'INSERT INTO moves (room_id, ply, move, version) VALUES (?, ?, ?, ?)',
  );
  const setSeat = {
    tiger: db.prepare<[string, string]>(
      'UPDATE rooms SET tiger_hash = ? WHERE id = ? AND tiger_hash IS NULL',
    ),
    goat: db.prepare<[string, string]>('UPDATE rooms SET goat_hash = ? WHERE id = ? AND goat_hash IS NULL'),
  } satisfies Record<Side, unknown>;

  const appendTx = db.transaction(
    (roomId: string, expectedVersion: number, changes: readonly StoredChange[]): AppendResult => {
      const last = changes[changes.length - 1];
      if (!last) return { ok: true };
      if (bumpVersion.run(last.version, roomId, expectedVersion).changes !== 1) {
        return { ok: false, storedVersion: selectVersion.get(roomId)?.version ?? null };
      }
      for (const change of changes) {
        if (change.kind === 'move') insertMove.run(roomId, change.ply, change.move, change.version);
        else if (change.kind === 'seat' && setSeat[change.side].run(change.tokenHash, roomId).changes !== 1) {
          throw new Error(`room ${roomId}: the ${change.side} seat was already taken in storage`);
        }
      }
      return { ok: true };
    },
  );

  let closed = false;
  return {
    async createRoom(record) {
      const info = insertRoom.run({
        id: record.roomId,
        variant: record.variant,
        options: JSON.stringify(record.options),
        created_at: record.createdAt,
        version: record.version,
        tiger_hash: record.seats.tiger,
        goat_hash: record.seats.goat,
      });
      return info.changes === 1;
    },
    async loadRoom(roomId) {
      const row = selectRoom.get(roomId);
      if (!row) return null;
      return {
        roomId: row.id,
        variant: parseVariant(row.variant),
        options: parseOptions(row.options),
        createdAt: row.created_at,
        version: row.version,
        seats: { tiger: row.tiger_hash, goat: row.goat_hash },
        moves: selectMoves.all(roomId).map((m) => ({ text: m.move, version: m.version })),
      } satisfies RoomRecord;
    },
    async append(roomId, expectedVersion, changes) {
      assertContiguous(expectedVersion, changes);
      return appendTx.immediate(roomId, expectedVersion, changes);
    },
    async check() {
      db.prepare('SELECT 1').get();
    },
    async close() {
      if (closed) return;
      closed = true;
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}

function parseVariant(text: string): Variant {
  const variant = VARIANTS.find((v) => v === text);
  if (!variant) throw new Error(`unknown variant in storage: ${text}`);
  return variant;
}

function parseOptions(text: string): Options {
  const raw = JSON.parse(text) as Record<string, unknown>;
  return Object.fromEntries(OPTION_NAMES.map((name) => [name, raw[name] === true])) as unknown as Options;
}
