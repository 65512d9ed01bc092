/** The state of one room: plain immutable data, replaced (never mutated) by the reducer. */
import type { ErrorCode, RoomEvent, Snapshot } from '@bagh/protocol';
import {
  createGame,
  type Game,
  makeMove,
  makePosition,
  type Options,
  playMoveText,
  SIDES,
  type Side,
  type Variant,
} from '@bagh/rules';
import { sameHash } from './tokens.js';

export interface SeatState {
  /** SHA-256 of the seat token; null while the seat is free. */
  readonly tokenHash: string | null;
  /** The sockets holding the seat right now (a player may have several tabs open). */
  readonly sockets: readonly string[];
}

export interface LastMove {
  readonly side: Side;
  readonly text: string;
  /** The version of the event that applied it (the answer to a resend). */
  readonly version: number;
}

export interface RoomState {
  readonly roomId: string;
  readonly variant: Variant;
  readonly options: Options;
  readonly createdAt: number;
  readonly version: number;
  readonly game: Game;
  /** Canonical move texts; appended to, never rewritten. */
  readonly moveTexts: readonly string[];
  /** RULES.md position string of `game.position` (cached: it is in every snapshot). */
  readonly position: string;
  readonly lastMove: LastMove | null;
  readonly seats: { readonly [S in Side]: SeatState };
  readonly spectators: readonly string[];
}

export interface RoomError {
  readonly code: ErrorCode;
  readonly message: string;
}
export const roomError = (code: ErrorCode, message: string): RoomError => ({ code, message });

/** What storage keeps of a room; presence is not kept (after a restart nobody is connected). */
export interface RoomRecord {
  readonly roomId: string;
  readonly variant: Variant;
  readonly options: Options;
  readonly createdAt: number;
  readonly version: number;
  readonly seats: { readonly [S in Side]: string | null };
  readonly moves: readonly { readonly text: string; readonly version: number }[];
}

const freeSeat: SeatState = { tokenHash: null, sockets: [] };

/** A new room, at version 0, whose creator holds `side`. */
export function newRoomState(init: {
  roomId: string;
  variant: Variant;
  options: Partial<Options>;
  createdAt: number;
  side: Side;
  tokenHash: string;
}): RoomState {
  const created = createGame(init.variant, init.options);
  if (!created.ok) throw new Error(`cannot start ${init.variant}: ${created.error.message}`);
  const game = created.value;
  return {
    roomId: init.roomId,
    variant: init.variant,
    options: game.options,
    createdAt: init.createdAt,
    version: 0,
    game,
    moveTexts: [],
    position: makePosition(game.position),
    lastMove: null,
    seats: {
      tiger: init.side === 'tiger' ? { tokenHash: init.tokenHash, sockets: [] } : freeSeat,
      goat: init.side === 'goat' ? { tokenHash: init.tokenHash, sockets: [] } : freeSeat,
    },
    spectators: [],
  };
}

/** What storage keeps of a state. */
export function recordOf(state: RoomState): RoomRecord {
  return {
    roomId: state.roomId,
    variant: state.variant,
    options: state.options,
    createdAt: state.createdAt,
    version: state.version,
    seats: { tiger: state.seats.tiger.tokenHash, goat: state.seats.goat.tokenHash },
    moves: [],
  };
}

/** Rebuilds a room from storage by replaying its moves through the rules. */
export function restoreRoomState(record: RoomRecord): RoomState {
  const created = createGame(record.variant, record.options);
  if (!created.ok) throw new Error(`room ${record.roomId}: ${created.error.message}`);
  let game = created.value;
  let lastMove: LastMove | null = null;
  for (const [index, move] of record.moves.entries()) {
    const side = game.position.toMove;
    const played = playMoveText(game, move.text);
    if (!played.ok)
      throw new Error(`room ${record.roomId}: move ${index} ${move.text}: ${played.error.message}`);
    game = played.value;
    lastMove = { side, text: makeMove(game.moves[game.moves.length - 1]!), version: move.version };
  }
  return {
    roomId: record.roomId,
    variant: record.variant,
    options: game.options,
    createdAt: record.createdAt,
    version: record.version,
    game,
    moveTexts: game.moves.map(makeMove),
    position: makePosition(game.position),
    lastMove,
    seats: {
      tiger: { tokenHash: record.seats.tiger, sockets: [] },
      goat: { tokenHash: record.seats.goat, sockets: [] },
    },
    spectators: [],
  };
}

/** The public view of a room: everything anyone may see, never a token hash. */
export function snapshotOf(state: RoomState): Snapshot {
  const { game } = state;
  const seat = (side: Side) => ({
    taken: state.seats[side].tokenHash !== null,
    connected: state.seats[side].sockets.length > 0,
  });
  return {
    roomId: state.roomId,
    version: state.version,
    variant: state.variant,
    options: { ...state.options },
    position: state.position,
    moves: state.moveTexts as string[],
    toMove: game.position.toMove,
    goatsInHand: game.position.goatsInHand,
    captured: game.position.goatsCaptured,
    result: game.outcome ? { winner: game.outcome.winner, reason: game.outcome.reason } : null,
    seats: { tiger: seat('tiger'), goat: seat('goat') },
    spectators: state.spectators.length,
  };
}

/** The side a socket holds in this room, or null (spectator or not here). */
export function seatOf(state: RoomState, socketId: string): Side | null {
  for (const side of SIDES) if (state.seats[side].sockets.includes(socketId)) return side;
  return null;
}

/** Whether a seat's stored hash equals a presented one (constant time). */
export const sameHashIn = (stored: string | null, candidate: string): boolean =>
  stored !== null && sameHash(stored, candidate);

export const isPresent = (state: RoomState, socketId: string): boolean =>
  seatOf(state, socketId) !== null || state.spectators.includes(socketId);

export function withoutSocket(state: RoomState, socketId: string): RoomState {
  if (!isPresent(state, socketId)) return state;
  const drop = (ids: readonly string[]) => ids.filter((id) => id !== socketId);
  return {
    ...state,
    seats: {
      tiger: { ...state.seats.tiger, sockets: drop(state.seats.tiger.sockets) },
      goat: { ...state.seats.goat, sockets: drop(state.seats.goat.sockets) },
    },
    spectators: drop(state.spectators),
  };
}

/** Places a socket in a seat (side) or among the spectators (null), wherever it was before. */
export function withSocketAt(state: RoomState, socketId: string, side: Side | null): RoomState {
  const base = withoutSocket(state, socketId);
  if (side === null) return { ...base, spectators: [...base.spectators, socketId] };
  const seat = base.seats[side];
  return { ...base, seats: { ...base.seats, [side]: { ...seat, sockets: [...seat.sockets, socketId] } } };
}

/** Builds the versioned event that follows `state` (the state already holds the change). */
export function eventAfter(
  state: RoomState,
  type: RoomEvent['type'],
  extra: { side?: Side; move?: string } = {},
): { state: RoomState; event: RoomEvent } {
  const next = { ...state, version: state.version + 1 };
  return {
    state: next,
    event: { roomId: next.roomId, version: next.version, type, ...extra, snapshot: snapshotOf(next) },
  };
}
