/** The state of one room: plain immutable data, replaced (never mutated) by the reducer. */
import {
  type ErrorCode,
  ResolvedOptions,
  type RoomEvent,
  Side as SideSchema,
  type Snapshot,
  Variant as VariantSchema,
} from '@bagh/protocol';
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
import { z } from 'zod';
import type { RoomRecord, StoredChange } from '../storage/types.js';
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

/** How a room was set up; stored once, as the record's `init`. */
export const RoomInit = z.object({
  variant: VariantSchema,
  options: ResolvedOptions,
  creator: z.object({ side: SideSchema, tokenHash: z.string() }),
});
export type RoomInit = z.infer<typeof RoomInit>;

export interface RoomState {
  readonly roomId: string;
  readonly init: RoomInit;
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

const freeSeat: SeatState = { tokenHash: null, sockets: [] };

/** A new room, at version 0, whose creator holds their side. */
export function newRoomState(
  roomId: string,
  createdAt: number,
  setup: {
    variant: Variant;
    options: Partial<Options>;
    creator: { side: Side; tokenHash: string };
  },
): RoomState {
  const created = createGame(setup.variant, setup.options);
  if (!created.ok) throw new Error(`cannot start ${setup.variant}: ${created.error.message}`);
  const game = created.value;
  const { side, tokenHash } = setup.creator;
  return {
    roomId,
    init: { variant: setup.variant, options: game.options, creator: { side, tokenHash } },
    variant: setup.variant,
    options: game.options,
    createdAt,
    version: 0,
    game,
    moveTexts: [],
    position: makePosition(game.position),
    lastMove: null,
    seats: {
      tiger: side === 'tiger' ? { tokenHash, sockets: [] } : freeSeat,
      goat: side === 'goat' ? { tokenHash, sockets: [] } : freeSeat,
    },
    spectators: [],
  };
}

/** What storage keeps of a new room. */
export const recordOf = (state: RoomState): RoomRecord => ({
  roomId: state.roomId,
  createdAt: state.createdAt,
  init: state.init,
  version: state.version,
  changes: [],
});

/** The durable changes, by kind; the store keeps their data without looking inside. */
const CHANGE_DATA = {
  move: z.object({ move: z.string() }),
  seat: z.object({ side: SideSchema, tokenHash: z.string() }),
} as const;
export type ChangeKind = keyof typeof CHANGE_DATA;
export type ChangeData<K extends ChangeKind> = z.infer<(typeof CHANGE_DATA)[K]>;

export const storedChange = <K extends ChangeKind>(
  kind: K,
  version: number,
  data: ChangeData<K>,
): StoredChange => ({
  version,
  kind,
  data,
});

/** Replays one stored change onto a room being rebuilt. */
function replay(state: RoomState, change: StoredChange): RoomState {
  switch (change.kind) {
    case 'move': {
      const { move } = CHANGE_DATA.move.parse(change.data);
      const side = state.game.position.toMove;
      const played = playMoveText(state.game, move);
      if (!played.ok)
        throw new Error(`room ${state.roomId}: move ${move} at v${change.version}: ${played.error.message}`);
      const game = played.value;
      const text = makeMove(game.moves[game.moves.length - 1]!);
      return {
        ...state,
        game,
        moveTexts: [...state.moveTexts, text],
        position: makePosition(game.position),
        lastMove: { side, text, version: change.version },
      };
    }
    case 'seat': {
      const { side, tokenHash } = CHANGE_DATA.seat.parse(change.data);
      return { ...state, seats: { ...state.seats, [side]: { ...state.seats[side], tokenHash } } };
    }
    default:
      throw new Error(`room ${state.roomId}: unknown stored change '${change.kind}' at v${change.version}`);
  }
}

/** Rebuilds a room from storage by replaying its changes through the rules. */
export function restoreRoomState(record: RoomRecord): RoomState {
  const init = RoomInit.parse(record.init);
  const start = newRoomState(record.roomId, record.createdAt, init);
  return { ...record.changes.reduce(replay, start), version: record.version };
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
