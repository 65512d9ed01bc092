/**
 * The PostgreSQL schema as kysely migrations, run in name order at start (see postgres.ts). A
 * migration, once released, is never edited: a change of schema is a new entry.
 *
 * Data columns are `json` (kept as written, never looked into by the store); times are ms since
 * the epoch (bigint), as in SQLite.
 */
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const migrations: Record<string, Migration> = {
  '0001_rooms': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('room')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('init', 'json', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 0`))
        .execute();
      // The primary key is the constraint that no two changes share a room's version.
      await db.schema
        .createTable('room_change')
        .addColumn('room_id', 'text', (c) => c.notNull().references('room.id'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('data', 'json', (c) => c.notNull())
        .addPrimaryKeyConstraint('room_change_pkey', ['room_id', 'version'])
        .execute();
      // The public rooms in play across nodes; `entry` null: the room ended (a tombstone).
      await db.schema
        .createTable('live_room')
        .addColumn('room_id', 'text', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('active_at', 'bigint', (c) => c.notNull())
        .addColumn('entry', 'json')
        .execute();
      await db.schema.createIndex('live_room_active_at').on('live_room').column('active_at').execute();
      await db.schema
        .createTable('health')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  /** The archive of finished games: one row each, kept for good (see ArchivedGame). */
  '0002_games': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('game')
        // Byte order, as in SQLite: the listing's ties (same finished_at) sort alike on both.
        .addColumn('room_id', sql`text COLLATE "C"`, (c) => c.primaryKey())
        .addColumn('variant', 'text', (c) => c.notNull())
        .addColumn('options', 'text', (c) => c.notNull())
        .addColumn('start', 'text')
        .addColumn('moves', 'text', (c) => c.notNull())
        .addColumn('plies', 'integer', (c) => c.notNull())
        .addColumn('winner', 'text')
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('clock', 'json')
        .addColumn('bot', 'json')
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint', (c) => c.notNull())
        .execute();
      // The listing's keyset order (newest first: scanned backwards).
      await db.schema
        .createIndex('game_finished_at')
        .on('game')
        .columns(['finished_at', 'room_id'])
        .execute();
    },
  },
  /** The timed games a start resumes are found by their room's age, not by a scan of every room. */
  '0003_room_created_at': {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('room_created_at').ifNotExists().on('room').column('created_at').execute();
    },
  },
};
