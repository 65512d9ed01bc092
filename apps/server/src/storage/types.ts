/**
 * Where rooms live between restarts: one narrow async interface, version-checked so that two
 * writers (two nodes, later) can never both apply a change at the same version.
 */
/** JSON data, as the store keeps it. */
export type StoredData = Readonly<Record<string, unknown>>;

/**
 * One event's durable part. Every event bumps the room's version; a change with data is also
 * kept, to be replayed in order when the room is loaded. The store never looks inside the data.
 */
export interface StoredChange {
  readonly version: number;
  readonly kind: string;
  readonly data: StoredData | null;
}

/** A room as stored: how it was set up, its version, and every change with data, in order. */
export interface RoomRecord {
  readonly roomId: string;
  readonly createdAt: number;
  readonly init: StoredData;
  readonly version: number;
  readonly changes: readonly StoredChange[];
}

/** `conflict`: the stored version is no longer the expected one; reload and judge again. */
export type AppendResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly storedVersion: number | null };

export interface ChangesSince {
  /** The stored version now. */
  readonly version: number;
  /** The changes with data whose version is above the one asked for, in order. */
  readonly changes: readonly StoredChange[];
}

/**
 * A finished game as the archive keeps it, for good: one compact row per room, written in the
 * transaction of the append that gave the room its result (or later, for a room finished before
 * the archive existed). Written once: archiving a room's game again changes nothing. The store
 * looks only at the columns it filters and orders by (variant, winner, reason, finishedAt).
 */
export interface ArchivedGame {
  readonly roomId: string;
  readonly variant: string;
  /** The options in force, as the server encodes them. */
  readonly options: string;
  /** The start position when it is not the variant's; null for the usual start. */
  readonly start: string | null;
  /** Canonical move texts, separated by single spaces ('' for none). */
  readonly moves: string;
  /** How many moves (plies) `moves` holds. */
  readonly plies: number;
  readonly winner: string | null;
  readonly reason: string;
  /** The time control and the clocks as they stopped; null for an untimed game. */
  readonly clock: StoredData | null;
  /** The seat the computer held, if any. */
  readonly bot: StoredData | null;
  readonly startedAt: number;
  readonly finishedAt: number;
}

/** An archived game as listed: everything but its moves. */
export type GameSummary = Omit<ArchivedGame, 'moves' | 'start'>;

/** The reason of a game ended before it began: archived, never listed. */
export const UNLISTED_REASON = 'aborted';

export interface GameQuery {
  readonly variant?: string | undefined;
  /** A side: the games that side won; `draw`: those nobody won. */
  readonly result?: 'tiger' | 'goat' | 'draw' | undefined;
  /** Only the games listed after this one (newest first: finished earlier, or at the same ms with a smaller room id). */
  readonly before?: { readonly finishedAt: number; readonly roomId: string } | undefined;
  readonly limit: number;
}

export interface RoomStorage {
  /** Stores a new room. Resolves false when the id is already taken. */
  createRoom(record: RoomRecord): Promise<boolean>;
  /** The room with every seat hash and move, or null for an unknown id. */
  loadRoom(roomId: string): Promise<RoomRecord | null>;
  /**
   * Atomically applies `changes` (versions expectedVersion+1, +2, …) if the room is still at
   * `expectedVersion`. When it resolves ok, the changes are durable. `finished`: the changes give
   * the room its result; its game is archived in the same transaction, so that no result is ever
   * stored without its archived game.
   */
  append(
    roomId: string,
    expectedVersion: number,
    changes: readonly StoredChange[],
    finished?: ArchivedGame,
  ): Promise<AppendResult>;
  /**
   * Archives a game on its own (a room finished before the archive existed); a room already
   * archived is left as it is.
   */
  archiveGame(game: ArchivedGame): Promise<void>;
  /** The archived game of a room, or null. */
  loadGame(roomId: string): Promise<ArchivedGame | null>;
  /**
   * Archived games, newest first (by finishedAt, then room id, both descending), at most `limit`;
   * games with the UNLISTED_REASON are left out.
   */
  listGames(query: GameQuery): Promise<GameSummary[]>;
  /**
   * Shared stores only (several nodes on one PostgreSQL): the version stored for the room, or null
   * when unknown. A room that is live on several nodes compares it with its cached version
   * before judging a command, and reloads when another node moved the room on.
   */
  currentVersion?(roomId: string): Promise<number | null>;
  /**
   * The room's version and its changes with data after `version`, in order, read at one instant
   * (null for an unknown room): what a node whose cached room is at `version` has missed. A node
   * applies them instead of reloading the whole room.
   */
  changesSince?(roomId: string, version: number): Promise<ChangesSince | null>;
  /**
   * Shared stores only: the index of public rooms in play across nodes. `entry` null removes the
   * room (it has a result). An update older (by version) than the one indexed is ignored.
   */
  indexLive?(roomId: string, version: number, entry: StoredData | null, at: number): Promise<void>;
  /** The indexed public rooms in play, most recently active first. */
  listLive?(limit: number): Promise<StoredData[]>;
  /**
   * The rooms created at `createdSince` or later whose clock runs (a timed game with a move and no
   * result, so not archived), oldest first, at most `limit`: a server that starts loads them, and
   * their flag timers end them on time though nobody comes back.
   */
  timedRoomsInPlay(createdSince: number, limit: number): Promise<string[]>;
  /** Throws when the store cannot serve (health check). */
  check(): Promise<void>;
  /** Flushes and releases the store; no call may follow. */
  close(): Promise<void>;
}

/** Programmer error: a change list whose versions do not follow expectedVersion. */
export function assertContiguous(expectedVersion: number, changes: readonly StoredChange[]): void {
  changes.forEach((change, index) => {
    if (change.version !== expectedVersion + index + 1) {
      throw new Error(
        `change ${index} has version ${change.version}, expected ${expectedVersion + index + 1}`,
      );
    }
  });
}

/** A new room's columns as the SQL stores insert them: id, created at, init (JSON), version. */
export const roomColumns = (record: RoomRecord): [string, number, string, number] => [
  record.roomId,
  record.createdAt,
  JSON.stringify(record.init),
  record.version,
];

/** The archive's columns, in the order the SQL stores insert them. */
export const GAME_COLUMNS =
  'room_id, variant, options, start, moves, plies, winner, reason, clock, bot, started_at, finished_at';

/** A game's values in GAME_COLUMNS order (clock and bot as JSON text). */
export const gameValues = (game: ArchivedGame): (string | number | null)[] => [
  game.roomId,
  game.variant,
  game.options,
  game.start,
  game.moves,
  game.plies,
  game.winner,
  game.reason,
  game.clock === null ? null : JSON.stringify(game.clock),
  game.bot === null ? null : JSON.stringify(game.bot),
  game.startedAt,
  game.finishedAt,
];

/** A row of the archive as the SQL stores read it (PostgreSQL hands bigint as text, json parsed). */
export interface GameRow {
  room_id: string;
  variant: string;
  options: string;
  start?: string | null;
  moves?: string;
  plies: number;
  winner: string | null;
  reason: string;
  clock: string | StoredData | null;
  bot: string | StoredData | null;
  started_at: number | string;
  finished_at: number | string;
}

const jsonOf = (value: string | StoredData | null): StoredData | null =>
  typeof value === 'string' ? (JSON.parse(value) as StoredData) : value;

/** A listed row as a summary. */
export const summaryOf = (row: GameRow): GameSummary => ({
  roomId: row.room_id,
  variant: row.variant,
  options: row.options,
  plies: row.plies,
  winner: row.winner,
  reason: row.reason,
  clock: jsonOf(row.clock),
  bot: jsonOf(row.bot),
  startedAt: Number(row.started_at),
  finishedAt: Number(row.finished_at),
});

/** A full row as the archived game. */
export const gameOf = (row: GameRow): ArchivedGame => ({
  ...summaryOf(row),
  start: row.start ?? null,
  moves: row.moves ?? '',
});

/**
 * The listing's SELECT for `query`, with the placeholders `param(n)` makes (1-based): one text per
 * combination of filters, so each store can keep its statements prepared.
 */
export function listGamesSql(
  query: GameQuery,
  param: (n: number) => string,
): { text: string; values: (string | number)[] } {
  const where = [`reason <> '${UNLISTED_REASON}'`];
  const values: (string | number)[] = [];
  const next = (value: string | number) => {
    values.push(value);
    return param(values.length);
  };
  if (query.variant !== undefined) where.push(`variant = ${next(query.variant)}`);
  if (query.result === 'draw') where.push('winner IS NULL');
  else if (query.result !== undefined) where.push(`winner = ${next(query.result)}`);
  // Keyset: a row value comparison follows the (finished_at, room_id) index, ties included.
  if (query.before) {
    where.push(`(finished_at, room_id) < (${next(query.before.finishedAt)}, ${next(query.before.roomId)})`);
  }
  const columns = 'room_id, variant, options, plies, winner, reason, clock, bot, started_at, finished_at';
  const text = `SELECT ${columns} FROM game WHERE ${where.join(' AND ')} ORDER BY finished_at DESC, room_id DESC LIMIT ${next(query.limit)}`;
  return { text, values };
}
