/**
 * The room reducer: every change to a room is a command, judged here and nowhere else.
 * Pure: `(RoomState, Command) → Result<{ state, events, version }, RoomError>`; no I/O, no clock.
 */
import type { RoomEvent } from '@bagh/protocol';
import { makeMove, makePosition, parseMove, play, type Result, SIDES, type Side } from '@bagh/rules';
import {
  eventAfter,
  type RoomError,
  type RoomState,
  roomError,
  sameHashIn,
  seatOf,
  withoutSocket,
  withSocketAt,
} from './state.js';

export type Command =
  /** A socket enters the room; a token hash that matches a seat makes it that seat. */
  | { readonly type: 'join'; readonly socketId: string; readonly tokenHash?: string | undefined }
  /** A socket takes a free seat; the token (hashed here) is new and will be handed to it. */
  | { readonly type: 'claim'; readonly socketId: string; readonly side: Side; readonly tokenHash: string }
  /** `ply`: the number of moves the sender saw played. */
  | { readonly type: 'move'; readonly socketId: string; readonly move: string; readonly ply: number }
  /** A socket whose connection was recovered comes back to the place it held. */
  | { readonly type: 'connect'; readonly socketId: string; readonly side: Side | null }
  | { readonly type: 'disconnect'; readonly socketId: string };

export interface Applied {
  readonly state: RoomState;
  /** Versioned events, `state.version` being the last one's. */
  readonly events: readonly RoomEvent[];
  /** The version to acknowledge: for a move, the version of the event that applied it. */
  readonly version: number;
}

export type Reduction = Result<Applied, RoomError>;

const fail = (code: RoomError['code'], message: string): Reduction => ({
  ok: false,
  error: roomError(code, message),
});
const done = (state: RoomState, events: readonly RoomEvent[] = [], version = state.version): Reduction => ({
  ok: true,
  value: { state, events, version },
});

export function reduce(state: RoomState, command: Command): Reduction {
  switch (command.type) {
    case 'join':
      return join(state, command.socketId, command.tokenHash);
    case 'claim':
      return claim(state, command.socketId, command.side, command.tokenHash);
    case 'move':
      return move(state, command.socketId, command.move, command.ply);
    case 'connect':
      return presence(state, withSocketAt(state, command.socketId, seatStillValid(state, command.side)));
    case 'disconnect':
      return presence(state, withoutSocket(state, command.socketId));
  }
}

const seatStillValid = (state: RoomState, side: Side | null): Side | null =>
  side !== null && state.seats[side].tokenHash !== null ? side : null;

const presenceKey = (state: RoomState): string =>
  `${state.seats.tiger.sockets.length > 0}/${state.seats.goat.sockets.length > 0}/${state.spectators.length}`;

/** A presence change is an event only when someone can see it (connected flags, spectator count). */
function presence(before: RoomState, after: RoomState): Reduction {
  if (presenceKey(before) === presenceKey(after)) return done(after);
  const { state, event } = eventAfter(after, 'presence');
  return done(state, [event]);
}

function join(state: RoomState, socketId: string, tokenHash: string | undefined): Reduction {
  let side: Side | null;
  if (tokenHash !== undefined) {
    side = SIDES.find((s) => sameHashIn(state.seats[s].tokenHash, tokenHash)) ?? null;
    if (side === null) return fail('UNAUTHORIZED', 'this seat token belongs to no seat of this room');
  } else {
    // Without a token a socket keeps the seat it already proved it holds; anyone else watches.
    side = seatOf(state, socketId);
  }
  return presence(state, withSocketAt(state, socketId, side));
}

function claim(state: RoomState, socketId: string, side: Side, tokenHash: string): Reduction {
  if (state.seats[side].tokenHash !== null) return fail('SEAT_TAKEN', `the ${side} seat is taken`);
  const held = seatOf(state, socketId);
  if (held !== null) return fail('NOT_ALLOWED', `this connection already holds the ${held} seat`);
  const seated = withSocketAt(state, socketId, side);
  const next: RoomState = {
    ...seated,
    seats: { ...seated.seats, [side]: { ...seated.seats[side], tokenHash } },
  };
  const { state: after, event } = eventAfter(next, 'seat', { side });
  return done(after, [event]);
}

function move(state: RoomState, socketId: string, text: string, ply: number): Reduction {
  const side = seatOf(state, socketId);
  if (side === null) {
    return fail('UNAUTHORIZED', 'only a seated player may move: join with a seat token or claim a seat');
  }
  const played = state.moveTexts.length;
  if (ply < played) {
    const last = state.lastMove;
    if (ply === played - 1 && last !== null && last.side === side) {
      const parsed = parseMove(text);
      if (parsed.ok && makeMove(parsed.value) === last.text) return done(state, [], last.version);
    }
    return fail('STALE', `you moved at ply ${ply}, but ${played} moves have been played`);
  }
  if (ply > played) return fail('STALE', `ply ${ply} is ahead of the game: ${played} moves have been played`);
  if (state.game.outcome) return fail('GAME_OVER', `the game is over: ${state.game.outcome.winner} won`);
  const toMove = state.game.position.toMove;
  if (toMove !== side) return fail('NOT_YOUR_TURN', `it is ${toMove}'s turn`);
  const parsed = parseMove(text);
  if (!parsed.ok) return fail('ILLEGAL_MOVE', parsed.error.message);
  const result = play(state.game, parsed.value);
  if (!result.ok) return fail('ILLEGAL_MOVE', result.error.message);
  const game = result.value;
  const canonical = makeMove(parsed.value);
  const next: RoomState = {
    ...state,
    game,
    moveTexts: [...state.moveTexts, canonical],
    position: makePosition(game.position),
    lastMove: { side, text: canonical, version: state.version + 1 },
  };
  const { state: after, event } = eventAfter(next, 'move', { side, move: canonical });
  return done(after, [event]);
}
