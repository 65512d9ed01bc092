/**
 * What happens to a room, as facts: the reducer judges a command into changes, `applyChange`
 * folds each one into the state (live, and again on replay), storage keeps it as `{ kind, data }`,
 * and its broadcast event is projected from it.
 */
import {
  ChatChannel,
  type EventType,
  GameResult as GameResultSchema,
  Role as RoleSchema,
  type RoomEvent,
  Side as SideSchema,
} from '@bagh/protocol';
import {
  type Game,
  makeMove,
  makePosition,
  playMoveText,
  type Side,
  stopClockWith,
  withMoverTime,
} from '@bagh/rules';
import { z } from 'zod';
import type { RoomRecord, StoredChange } from '../storage/types.js';
import { PresenceData, presenceDataOf, withPresenceData } from './presence.js';
import { snapshotOf } from './snapshot.js';
import {
  atMaxPlies,
  botSeatOf,
  NO_PRESENCE,
  newRoomState,
  otherSide,
  type RoomEnv,
  RoomInit,
  type RoomState,
  type SeatState,
} from './state.js';

const Remaining = z.object({ tiger: z.number(), goat: z.number() });

/**
 * The stored changes. A change without its `kind` is its stored `data`, in the shapes stored before
 * the changes were typed (test/fixtures/rooms-3faa71d.json): old rooms replay as they were.
 */
export const StoredRoomChange = z.discriminatedUnion('kind', [
  /** `move`: canonical. `at` and `ms` (the mover's remaining time after the move, increment added) in timed games. */
  z.object({
    kind: z.literal('move'),
    move: z.string(),
    at: z.number().optional(),
    ms: z.number().optional(),
  }),
  /** `presence`: several nodes only, presence across nodes after the seat was taken. */
  z.object({
    kind: z.literal('seat'),
    side: SideSchema,
    tokenHash: z.string(),
    presence: PresenceData.optional(),
  }),
  /** Several nodes only (presence on one node is not stored): who is here, across nodes. */
  PresenceData.extend({ kind: z.literal('presence') }),
  /** A result decided by the room, with the clocks as they stopped. */
  z.object({
    kind: z.literal('result'),
    winner: SideSchema.nullable(),
    reason: GameResultSchema.shape.reason,
    at: z.number(),
    clock: Remaining.nullable(),
  }),
  z.object({ kind: z.literal('draw'), action: z.enum(['offer', 'decline']), side: SideSchema }),
  z.object({
    kind: z.literal('rematch'),
    action: z.enum(['offer', 'accept']),
    side: SideSchema,
    roomId: z.string().optional(),
  }),
  z.object({
    kind: z.literal('chat'),
    channel: ChatChannel,
    from: RoleSchema,
    text: z.string(),
    at: z.number(),
  }),
]);
export type StoredRoomChange = z.infer<typeof StoredRoomChange>;

/**
 * Presence on one node changed visibly: an event and a version, but nothing to store (one node's
 * sockets are not room data). Stored, as before, as a `presence` without data, which no store keeps.
 */
export interface LocalPresenceChange {
  readonly kind: 'local-presence';
}

export type RoomChange = StoredRoomChange | LocalPresenceChange;
export type ChangeKind = RoomChange['kind'];
export type ChangeOf<K extends ChangeKind> = Extract<RoomChange, { kind: K }>;

/** A change with the version of its event. */
export interface VersionedChange {
  readonly version: number;
  readonly change: RoomChange;
}

/** Presence after a command, as a change: stored with several nodes, a bare version on one. */
export function presenceChangeOf(state: RoomState): RoomChange {
  const data = presenceDataOf(state);
  return data ? { kind: 'presence', ...data } : { kind: 'local-presence' };
}

/**
 * The state after `change`, whose event has `version`. Throws on a change that does not fit (a
 * corrupt store). `judged`: for a move the reducer just judged on this state, the game after it as
 * the judgement played it, so that the move is not played twice (a second play from one game also
 * rebuilt its repetition history from the first move, every move).
 */
export function applyChange(state: RoomState, change: RoomChange, version: number, judged?: Game): RoomState {
  const next: RoomState = { ...state, version };
  switch (change.kind) {
    case 'move':
      return withMove(next, change, version, judged);
    case 'seat': {
      const seat: SeatState = { ...next.seats[change.side], tokenHash: change.tokenHash };
      const seated: RoomState = { ...next, seats: { ...next.seats, [change.side]: seat } };
      return change.presence ? withPresenceData(seated, change.presence) : seated;
    }
    case 'presence': {
      const { kind: _, ...data } = change;
      return withPresenceData(next, data);
    }
    case 'local-presence':
      return next;
    case 'result':
      return {
        ...next,
        result: { winner: change.winner, reason: change.reason },
        drawOffer: null,
        clock: next.clock && change.clock ? stopClockWith(next.clock, change.clock) : next.clock,
      };
    case 'draw':
      return { ...next, drawOffer: change.action === 'offer' ? change.side : null };
    case 'rematch': {
      if (change.action === 'offer') return { ...next, rematch: { offeredBy: change.side, roomId: null } };
      // Against the computer the player's own offer starts the rematch at once.
      const offeredBy = next.rematch?.offeredBy ?? (botSeatOf(next) ? change.side : otherSide(change.side));
      return { ...next, rematch: { offeredBy, roomId: change.roomId ?? null } };
    }
    case 'chat': {
      const { kind: _, ...message } = change;
      return { ...next, chat: [...next.chat, message] };
    }
  }
}

function withMove(state: RoomState, change: ChangeOf<'move'>, version: number, judged?: Game): RoomState {
  const side = state.game.position.toMove;
  const played = judged ? { ok: true as const, value: judged } : playMoveText(state.game, change.move);
  if (!played.ok)
    throw new Error(`room ${state.roomId}: move ${change.move} at v${version}: ${played.error.message}`);
  const game = played.value;
  const text = makeMove(game.moves[game.moves.length - 1]!);
  const result = game.outcome;
  const { at, ms } = change;
  // At the longest game a room keeps the clocks stop too: nobody may move, so nobody's time runs.
  const stops = result !== null || atMaxPlies(game);
  const clock =
    state.clock && at !== undefined && ms !== undefined
      ? withMoverTime(state.clock, side, ms, at, stops)
      : state.clock;
  return {
    ...state,
    game,
    moveTexts: [...state.moveTexts, text],
    position: makePosition(game.position),
    lastMove: { side, text, version },
    clock,
    result,
    // An offer lapses when the offerer's opponent moves.
    drawOffer: state.drawOffer === side ? state.drawOffer : null,
  };
}

const EVENT_TYPE: { readonly [K in ChangeKind]: EventType } = {
  move: 'move',
  seat: 'seat',
  presence: 'presence',
  'local-presence': 'presence',
  result: 'result',
  draw: 'draw',
  rematch: 'rematch',
  chat: 'chat',
};

/** The side an event names: the side taken, the mover, the winner, the one who offered or answered. */
function eventSide(change: RoomChange, after: RoomState): Side | undefined {
  switch (change.kind) {
    case 'move':
      return after.lastMove?.side;
    case 'seat':
    case 'draw':
    case 'rematch':
      return change.side;
    case 'result':
      return change.winner ?? undefined;
    default:
      return undefined;
  }
}

/** The broadcast event of `change`, `after` being the state it left. */
export function eventOf(change: RoomChange, after: RoomState): RoomEvent {
  const side = eventSide(change, after);
  return {
    roomId: after.roomId,
    version: after.version,
    type: EVENT_TYPE[change.kind],
    ...(side !== undefined ? { side } : {}),
    ...(change.kind === 'move' ? { move: change.move } : {}),
    snapshot: snapshotOf(after),
  };
}

/** The stored form of a change. */
export function storedChangeOf({ version, change }: VersionedChange): StoredChange {
  if (change.kind === 'local-presence') return { version, kind: 'presence', data: null };
  const { kind, ...data } = change;
  return { version, kind, data };
}

/** A stored change of room `roomId`, validated. */
export function parseStoredChange(stored: StoredChange, roomId: string): VersionedChange {
  const parsed = StoredRoomChange.safeParse({ ...stored.data, kind: stored.kind });
  if (!parsed.success) {
    const why = z.prettifyError(parsed.error);
    throw new Error(`room ${roomId}: stored change '${stored.kind}' at v${stored.version}: ${why}`);
  }
  return { version: stored.version, change: parsed.data };
}

/**
 * Replays one stored change onto a room being rebuilt (or catching up with changes another
 * node stored: the changes after its version, in order).
 */
export function replay(state: RoomState, stored: StoredChange): RoomState {
  const { version, change } = parseStoredChange(stored, state.roomId);
  return applyChange(state, change, version);
}

/** Rebuilds a room from storage by replaying its changes through the rules. */
export function restoreRoomState(record: RoomRecord, env: Partial<RoomEnv> = {}): RoomState {
  const init = RoomInit.parse(record.init);
  const start = newRoomState(record.roomId, record.createdAt, init, env);
  const rebuilt = record.changes.reduce(replay, start);
  const at = env.at ?? record.createdAt;
  if (env.sharedPresence) {
    // Several nodes: presence is the room's, as stored by the last node that counted it.
    return { ...rebuilt, version: record.version, at, presence: rebuilt.presence ?? NO_PRESENCE };
  }
  // Nobody is connected to a room just loaded: its taken seats are gone from now.
  const gone = (seat: SeatState): SeatState => ({ ...seat, goneSince: seat.tokenHash === null ? null : at });
  return {
    ...rebuilt,
    version: record.version,
    at,
    seats: { tiger: gone(rebuilt.seats.tiger), goat: gone(rebuilt.seats.goat) },
    presence: null,
  };
}
