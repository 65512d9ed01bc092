/**
 * Room changes: what the reducer decides is what storage keeps and what replay applies. Every
 * kind goes through the stored form and back to the state the reducer made; rooms stored before
 * the typed changes (the fixture, written at 3faa71d) load as they did.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ChangeKind,
  parseStoredChange,
  type RoomChange,
  restoreRoomState,
  StoredRoomChange,
  storedChangeOf,
} from '../src/rooms/changes.js';
import { type Command, reduce } from '../src/rooms/reducer.js';
import { chatFor, snapshotOf } from '../src/rooms/snapshot.js';
import { newRoomState, type RoomSetup, type RoomState, recordOf } from '../src/rooms/state.js';
import { hashSeatToken } from '../src/rooms/tokens.js';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import type { RoomRecord, StoredChange } from '../src/storage/types.js';
import { removeDir, tempDir } from './helpers.js';

const GOAT_HASH = hashSeatToken('goat-token-goat-token-goat-token');
const TIGER_HASH = hashSeatToken('tiger-token-tiger-token-tiger-tok');
const T0 = 1_000_000;
const GRACE_MS = 1_000;

/**
 * What a room keeps across a reload: everything but this node's sockets (and, on one node,
 * presence), and the start of a clock that does not run yet.
 */
function durable(state: RoomState, shared: boolean) {
  const seat = ({ tokenHash, bot, goneSince }: RoomState['seats']['tiger']) =>
    shared ? { tokenHash, bot, goneSince } : { tokenHash, bot };
  const { clock } = state;
  return {
    ...state,
    clock: clock && clock.running === null ? { ...clock, since: 0 } : clock,
    seats: { tiger: seat(state.seats.tiger), goat: seat(state.seats.goat) },
    spectators: [],
    presence: shared ? state.presence : null,
  };
}

/**
 * Runs commands through the reducer, storing its changes as a store does (JSON, data-less ones
 * dropped); after each command the stored record replays to the reducer's state.
 */
function play(setup: RoomSetup, shared: boolean, commands: (Command | ((state: RoomState) => Command))[]) {
  const env = { abandonGraceMs: GRACE_MS, sharedPresence: shared };
  let state = newRoomState('room-one', T0, setup, env);
  const record = { ...recordOf(state), changes: [] as StoredChange[] };
  const kinds = new Set<ChangeKind>();
  for (const next of commands) {
    const command = typeof next === 'function' ? next(state) : next;
    const result = reduce(state, command);
    if (!result.ok) throw new Error(`${command.type}: ${result.error.message}`);
    state = result.value.state;
    for (const versioned of result.value.changes) {
      kinds.add(versioned.change.kind);
      const stored: StoredChange = JSON.parse(JSON.stringify(storedChangeOf(versioned)));
      if (stored.data !== null) record.changes.push(stored);
    }
    record.version = state.version;
    const replayed = restoreRoomState(record, { ...env, at: state.at });
    expect(durable(replayed, shared), command.type).toEqual(durable(state, shared));
  }
  return { state, record, kinds };
}

const here = (remote = { tiger: 0, goat: 0, spectators: 0 }) => ({ remote });

describe('every change kind, stored and replayed, gives the state the reducer made', () => {
  const covered = new Set<ChangeKind>();
  const clock = { initialMs: 60_000, incrementMs: 1_000 };

  it('one node, a timed game: seats, moves, draws, chat, a flag, a rematch', () => {
    const { state, kinds } = play(
      { variant: 'bagh-chal', options: {}, creator: { side: 'goat', tokenHash: GOAT_HASH }, clock },
      false,
      [
        { type: 'join', socketId: 'g', tokenHash: GOAT_HASH, at: T0 },
        { type: 'claim', socketId: 't', side: 'tiger', tokenHash: TIGER_HASH, at: T0 + 10 },
        { type: 'join', socketId: 's', at: T0 + 20 },
        { type: 'move', socketId: 'g', move: 'G@c3', ply: 0, at: T0 + 1_000 },
        { type: 'move', socketId: 't', move: 'a1-b1', ply: 1, at: T0 + 3_000 },
        { type: 'draw-offer', socketId: 'g', at: T0 + 4_000 },
        { type: 'draw-decline', socketId: 't', at: T0 + 4_500 },
        { type: 'move', socketId: 'g', move: 'G@c2', ply: 2, at: T0 + 6_000 },
        { type: 'chat', socketId: 'g', channel: 'players', text: 'hi', at: T0 + 7_000 },
        { type: 'chat', socketId: 's', channel: 'spectators', text: 'hello', at: T0 + 7_500 },
        { type: 'disconnect', socketId: 's', at: T0 + 8_000 },
        (s) => ({ type: 'flag', version: s.version, at: T0 + 70_000 }),
        { type: 'rematch-offer', socketId: 'g', at: T0 + 71_000 },
        { type: 'rematch-accept', socketId: 't', roomId: 'next-room', at: T0 + 72_000 },
      ],
    );
    expect(state.result).toEqual({ winner: 'goat', reason: 'timeout' });
    for (const kind of kinds) covered.add(kind);
  });

  it('several nodes: presence and seats with presence, an abandonment, an agreed draw', () => {
    const { state, kinds } = play(
      { variant: 'bagh-chal', options: {}, creator: { side: 'tiger', tokenHash: TIGER_HASH } },
      true,
      [
        {
          type: 'join',
          socketId: 't',
          tokenHash: TIGER_HASH,
          at: T0,
          ...here({ tiger: 0, goat: 0, spectators: 2 }),
        },
        { type: 'claim', socketId: 'g', side: 'goat', tokenHash: GOAT_HASH, at: T0 + 10, ...here() },
        { type: 'move', socketId: 'g', move: 'G@c3', ply: 0, at: T0 },
        { type: 'disconnect', socketId: 't', at: T0 + 100, ...here() },
        (s) => ({ type: 'abandon-timer', version: s.version, at: T0 + 100 + GRACE_MS }),
        { type: 'join', socketId: 't2', tokenHash: TIGER_HASH, at: T0 + 5_000, ...here() },
        { type: 'draw-offer', socketId: 'g', at: T0 + 6_000 },
        { type: 'draw-offer', socketId: 't2', at: T0 + 7_000 },
      ],
    );
    expect(state.result).toEqual({ winner: null, reason: 'agreement' });
    for (const kind of kinds) covered.add(kind);
  });

  it('against the computer: its move, an abort, the rematch started by the player', () => {
    const { state, kinds } = play(
      {
        variant: 'bagh-chal',
        options: {},
        creator: { side: 'goat', tokenHash: GOAT_HASH },
        bot: { side: 'tiger', level: 'casual' },
      },
      false,
      [
        { type: 'join', socketId: 'g', tokenHash: GOAT_HASH, at: T0 },
        { type: 'move', socketId: 'g', move: 'G@c3', ply: 0, at: T0 },
        (s) => ({ type: 'bot-move', version: s.version, move: 'a1-b1', at: T0 + 10 }),
        { type: 'resign', socketId: 'g', at: T0 + 20 },
        { type: 'rematch-accept', socketId: 'g', roomId: 'bot-rematch', at: T0 + 30 },
      ],
    );
    expect(state.rematch).toEqual({ offeredBy: 'goat', roomId: 'bot-rematch' });
    for (const kind of kinds) covered.add(kind);
  });

  it('covers every kind of the union', () => {
    const stored = StoredRoomChange.options.map((option) => option.shape.kind.value);
    expect([...covered].sort()).toEqual([...stored, 'local-presence'].sort());
  });

  it('a change without data is a bare version; a stored one parses back to itself', () => {
    const local: RoomChange = { kind: 'local-presence' };
    expect(storedChangeOf({ version: 3, change: local })).toEqual({
      version: 3,
      kind: 'presence',
      data: null,
    });
    const chat: RoomChange = { kind: 'chat', channel: 'players', from: 'goat', text: 'hi', at: 5 };
    const stored = storedChangeOf({ version: 4, change: chat });
    expect(stored).toEqual({
      version: 4,
      kind: 'chat',
      data: { channel: 'players', from: 'goat', text: 'hi', at: 5 },
    });
    expect(parseStoredChange(stored, 'room-one')).toEqual({ version: 4, change: chat });
  });

  it('refuses stored data that does not fit its kind, naming the room and version', () => {
    const bad = { version: 7, kind: 'draw', data: { action: 'maybe', side: 'goat' } };
    expect(() => parseStoredChange(bad, 'room-one')).toThrow(/room room-one: stored change 'draw' at v7/);
    const unknown = { version: 8, kind: 'teleport', data: {} };
    expect(() => parseStoredChange(unknown, 'room-one')).toThrow(/stored change 'teleport' at v8/);
  });
});

interface OldRoom {
  readonly name: string;
  readonly shared: boolean;
  readonly at: number;
  readonly record: RoomRecord;
  readonly snapshot: unknown;
  readonly chat: unknown;
  readonly seats: unknown;
}

const OLD_ROOMS: OldRoom[] = JSON.parse(
  readFileSync(new URL('./fixtures/rooms-3faa71d.json', import.meta.url), 'utf8'),
);

describe('rooms stored before the typed changes (3faa71d)', () => {
  const dir = tempDir('bagh-old-rooms-');
  afterAll(() => removeDir(dir));

  it.each(OLD_ROOMS.map((room) => [room.name, room] as const))('%s replays as it did', (_name, old) => {
    const restored = restoreRoomState(old.record, { at: old.at, sharedPresence: old.shared });
    expect(snapshotOf(restored)).toEqual(old.snapshot);
    expect(chatFor(restored, true)).toEqual(old.chat);
    expect(restored.seats).toEqual(old.seats);
  });

  it('loads from a SQLite file whose rows were written in the old form', async () => {
    const file = join(dir, 'old.sqlite');
    await openSqliteStorage(file).close(); // the schema
    const db = new Database(file);
    const insertRoom = db.prepare('INSERT INTO room (id, created_at, init, version) VALUES (?, ?, ?, ?)');
    const insertChange = db.prepare(
      'INSERT INTO room_change (room_id, version, kind, data) VALUES (?, ?, ?, ?)',
    );
    for (const { record } of OLD_ROOMS) {
      insertRoom.run(record.roomId, record.createdAt, JSON.stringify(record.init), record.version);
      for (const c of record.changes)
        insertChange.run(record.roomId, c.version, c.kind, JSON.stringify(c.data));
    }
    db.close();
    const storage = openSqliteStorage(file);
    for (const old of OLD_ROOMS) {
      const record = await storage.loadRoom(old.record.roomId);
      const restored = restoreRoomState(record!, { at: old.at, sharedPresence: old.shared });
      expect(snapshotOf(restored), old.name).toEqual(old.snapshot);
    }
    await storage.close();
  });
});
