/**
 * The room reducer: every change to a room is a command, judged here and nowhere else.
 * Pure: `(RoomState, Command) → Result<{ state, events, version }, RoomError>`; no I/O, no clock.
 */
import type { ChatChannel, ChatMessage, GameResult, RoomEvent } from '@bagh/protocol';
import { makeMove, parseMove, play, type Result, SIDES, type Side } from '@bagh/rules';
import {
  abandonOf,
  botSeatOf,
  eventAfter,
  flagDue,
  otherSide,
  type PresenceCounts,
  type RoomError,
  type RoomState,
  remainingAt,
  roomError,
  sameHashIn,
  seatConnected,
  seatOf,
  seatTaken,
  spectatorCount,
  withClusterPresence,
  withMovePlayed,
  withoutSocket,
  withResult,
  withSocketAt,
} from './state.js';

/** Every command may carry `at`, the time it is judged at (epoch ms); without it no time passes. */
interface Timed {
  readonly at?: number | undefined;
}

/**
 * Several nodes: the sockets of the other nodes in the room, counted just before the command
 * (the room's own node counts its sockets from the state). Absent on a single node.
 */
interface Counted {
  readonly remote?: PresenceCounts | undefined;
}

export type Command = Timed &
  (
    | /** A socket enters the room; a token hash that matches a seat makes it that seat. */
    (Counted & { readonly type: 'join'; readonly socketId: string; readonly tokenHash?: string | undefined })
    /** A socket takes a free seat; the token (hashed here) is new and will be handed to it. */
    | (Counted & {
        readonly type: 'claim';
        readonly socketId: string;
        readonly side: Side;
        readonly tokenHash: string;
      })
    /** `ply`: the number of moves the sender saw played. */
    | { readonly type: 'move'; readonly socketId: string; readonly move: string; readonly ply: number }
    /** A socket whose connection was recovered comes back to the place it held. */
    | (Counted & { readonly type: 'connect'; readonly socketId: string; readonly side: Side | null })
    | (Counted & { readonly type: 'disconnect'; readonly socketId: string })
    /** Several nodes: presence counted again across nodes (before a claim or an abandonment timer). */
    | { readonly type: 'presence'; readonly remote: PresenceCounts }
    | { readonly type: 'resign'; readonly socketId: string }
    | { readonly type: 'abort'; readonly socketId: string }
    | { readonly type: 'draw-offer'; readonly socketId: string }
    | { readonly type: 'draw-accept'; readonly socketId: string }
    | { readonly type: 'draw-decline'; readonly socketId: string }
    | { readonly type: 'rematch-offer'; readonly socketId: string }
    /** `roomId`: the new room, already created with the sides swapped. */
    | { readonly type: 'rematch-accept'; readonly socketId: string; readonly roomId: string }
    | { readonly type: 'abandon-claim'; readonly socketId: string; readonly outcome: 'win' | 'draw' }
    | {
        readonly type: 'chat';
        readonly socketId: string;
        readonly channel: ChatChannel;
        readonly text: string;
      }
    /** Timers: a no-op unless the room is still at `version`. The clock ran out? */
    | { readonly type: 'flag'; readonly version: number }
    /** Has an absent player's grace period ended (the snapshot's `abandon.claimable`)? */
    | { readonly type: 'abandon-timer'; readonly version: number }
    /** The computer's move, computed for the room at `version`; a no-op once the room moved on. */
    | { readonly type: 'bot-move'; readonly version: number; readonly move: string }
  );

export interface Applied {
  readonly state: RoomState;
  /** Versioned events, `state.version` being the last one's. */
  readonly events: readonly RoomEvent[];
  /** The version to acknowledge: for a move, the version of the event that applied it. */
  readonly version: number;
  /** A chat message to deliver to its channel's audience once the event is durable. */
  readonly chat?: ChatMessage;
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

export function reduce(before: RoomState, command: Command): Reduction {
  // Time only moves forward: the reducer never reads a clock, the command says when it is.
  const state = command.at !== undefined && command.at > before.at ? { ...before, at: command.at } : before;
  switch (command.type) {
    case 'join':
      return join(state, command.socketId, command.tokenHash, command.remote);
    case 'claim':
      return claim(state, command.socketId, command.side, command.tokenHash, command.remote);
    case 'move':
      return move(state, command.socketId, command.move, command.ply);
    case 'connect': {
      const after = withSocketAt(state, command.socketId, seatStillValid(state, command.side));
      return presence(state, counted(state, after, command.remote));
    }
    case 'disconnect':
      return presence(state, counted(state, withoutSocket(state, command.socketId), command.remote));
    case 'presence':
      return presence(state, counted(state, state, command.remote));
    case 'resign':
      return withPlayer(state, command.socketId, (side) =>
        finish(state, { winner: otherSide(side), reason: 'resign' }),
      );
    case 'abort':
      return withPlayer(state, command.socketId, () => {
        if (state.moveTexts.length >= 2)
          return fail('NOT_ALLOWED', 'both sides have moved: the game cannot be aborted');
        return finish(state, { winner: null, reason: 'aborted' });
      });
    case 'draw-offer':
      return withPlayer(state, command.socketId, (side) => {
        if (botSeatOf(state)) return fail('NOT_ALLOWED', 'the computer plays on: it takes no draw offers');
        if (state.drawOffer === otherSide(side)) return finish(state, { winner: null, reason: 'agreement' });
        if (state.drawOffer === side) return done(state, [], state.version);
        return changed({ ...state, drawOffer: side }, 'draw', side);
      });
    case 'draw-accept':
      return withPlayer(state, command.socketId, (side) => {
        if (state.drawOffer !== otherSide(side))
          return fail('NOT_ALLOWED', 'your opponent has offered no draw');
        return finish(state, { winner: null, reason: 'agreement' });
      });
    case 'draw-decline':
      return withPlayer(state, command.socketId, (side) => {
        if (state.drawOffer !== otherSide(side))
          return fail('NOT_ALLOWED', 'your opponent has offered no draw');
        return changed({ ...state, drawOffer: null }, 'draw', side);
      });
    case 'rematch-offer':
      return rematch(state, command.socketId, null);
    case 'rematch-accept':
      return rematch(state, command.socketId, command.roomId);
    case 'abandon-claim':
      return withPlayer(state, command.socketId, (side) => {
        const gone = abandonOf(state);
        if (gone === null || gone.side !== otherSide(side)) {
          return fail('NOT_ALLOWED', 'your opponent is here: there is nothing to claim');
        }
        if (state.at < gone.claimableAt) {
          const left = Math.ceil((gone.claimableAt - state.at) / 1000);
          return fail('NOT_ALLOWED', `your opponent may still come back: claim in ${left} s`);
        }
        return finish(state, { winner: command.outcome === 'win' ? side : null, reason: 'abandoned' });
      });
    case 'chat':
      return chat(state, command.socketId, command.channel, command.text);
    case 'flag': {
      if (command.version !== state.version || !flagDue(state, state.at)) return done(before);
      const loser = state.clock!.running!;
      return finish(state, { winner: otherSide(loser), reason: 'timeout' }, true);
    }
    case 'abandon-timer': {
      const gone = abandonOf(state);
      if (command.version !== state.version || gone === null) return done(before);
      if (before.at >= gone.claimableAt || state.at < gone.claimableAt) return done(before);
      const { state: after, event } = eventAfter(state, 'presence');
      return done(after, [event]);
    }
    case 'bot-move': {
      const bot = botSeatOf(state);
      if (command.version !== state.version || bot === null || state.result !== null) return done(before);
      if (state.game.position.toMove !== bot.side || flagDue(state, state.at)) return done(before);
      return playFor(state, bot.side, command.move);
    }
  }
}

/** Runs `then` for the seated player of a game in play; spectators are UNAUTHORIZED. */
function withPlayer(state: RoomState, socketId: string, then: (side: Side) => Reduction): Reduction {
  const side = seatOf(state, socketId);
  if (side === null) return fail('UNAUTHORIZED', 'only a seated player may do this');
  if (state.result !== null) return fail('GAME_OVER', 'the game is over');
  return then(side);
}

/** One event of `type` after a change of state. */
function changed(state: RoomState, type: RoomEvent['type'], side?: Side): Reduction {
  const { state: after, event } = eventAfter(state, type, { side });
  return done(after, [event]);
}

/** Ends the game with `result`; the clocks stop where they are (at 0 for the flagged side). */
function finish(state: RoomState, result: GameResult, flagged = false): Reduction {
  let stopped = state.clock ? remainingAt(state.clock, state.at) : null;
  if (stopped && flagged && state.clock?.running) stopped = { ...stopped, [state.clock.running]: 0 };
  return changed(withResult(state, result, stopped), 'result', result.winner ?? undefined);
}

function rematch(state: RoomState, socketId: string, roomId: string | null): Reduction {
  const side = seatOf(state, socketId);
  if (side === null) return fail('UNAUTHORIZED', 'only a player may offer or accept a rematch');
  if (state.result === null) return fail('NOT_ALLOWED', 'the game is not over yet');
  if (state.rematch?.roomId) return fail('NOT_ALLOWED', 'the rematch has started');
  if (botSeatOf(state)) {
    // The computer always plays again: an offer is the start of the rematch (socket handler).
    if (roomId === null) return fail('NOT_ALLOWED', 'against the computer a rematch starts at once');
    return changed({ ...state, rematch: { offeredBy: side, roomId } }, 'rematch', side);
  }
  if (roomId === null) {
    if (state.rematch?.offeredBy === side) return done(state, [], state.version);
    if (state.rematch) return fail('NOT_ALLOWED', 'your opponent has offered a rematch: accept it');
    return changed({ ...state, rematch: { offeredBy: side, roomId: null } }, 'rematch', side);
  }
  if (state.rematch?.offeredBy !== otherSide(side)) {
    return fail('NOT_ALLOWED', 'your opponent has offered no rematch');
  }
  return changed({ ...state, rematch: { offeredBy: state.rematch.offeredBy, roomId } }, 'rematch', side);
}

function chat(state: RoomState, socketId: string, channel: ChatChannel, text: string): Reduction {
  const side = seatOf(state, socketId);
  if (side === null && !state.spectators.includes(socketId)) {
    return fail('UNAUTHORIZED', 'join the room to chat');
  }
  if (channel === 'players' && side === null) {
    return fail('UNAUTHORIZED', "spectators cannot write to the players' channel");
  }
  if (channel === 'spectators' && side !== null) {
    return fail('UNAUTHORIZED', "players cannot write to the spectators' channel");
  }
  const message = { channel, from: side ?? ('spectator' as const), text, at: state.at };
  const { state: after, event } = eventAfter({ ...state, chat: [...state.chat, message] }, 'chat');
  return {
    ok: true,
    value: {
      state: after,
      events: [event],
      version: after.version,
      chat: { roomId: state.roomId, ...message },
    },
  };
}

const seatStillValid = (state: RoomState, side: Side | null): Side | null =>
  side !== null && state.seats[side].tokenHash !== null ? side : null;

const presenceKey = (state: RoomState): string =>
  `${seatConnected(state, 'tiger')}/${seatConnected(state, 'goat')}/${spectatorCount(state)}`;

/** With several nodes, the presence across nodes after the command; on one node, `after` as it is. */
const counted = (before: RoomState, after: RoomState, remote: PresenceCounts | undefined): RoomState =>
  remote && after.presence !== null ? withClusterPresence(before, after, remote) : after;

/** A presence change is an event only when someone can see it (connected flags, spectator count). */
function presence(before: RoomState, after: RoomState): Reduction {
  if (presenceKey(before) === presenceKey(after)) return done(after);
  const { state, event } = eventAfter(after, 'presence');
  return done(state, [event]);
}

function join(
  state: RoomState,
  socketId: string,
  tokenHash: string | undefined,
  remote: PresenceCounts | undefined,
): Reduction {
  let side: Side | null;
  if (tokenHash !== undefined) {
    side = SIDES.find((s) => sameHashIn(state.seats[s].tokenHash, tokenHash)) ?? null;
    if (side === null) return fail('UNAUTHORIZED', 'this seat token belongs to no seat of this room');
  } else {
    // Without a token a socket keeps the seat it already proved it holds; anyone else watches.
    side = seatOf(state, socketId);
  }
  return presence(state, counted(state, withSocketAt(state, socketId, side), remote));
}

function claim(
  state: RoomState,
  socketId: string,
  side: Side,
  tokenHash: string,
  remote: PresenceCounts | undefined,
): Reduction {
  if (state.imported) return fail('NOT_ALLOWED', 'an imported game is a replay: it has no seats to take');
  if (seatTaken(state.seats[side])) return fail('SEAT_TAKEN', `the ${side} seat is taken`);
  const held = seatOf(state, socketId);
  if (held !== null) return fail('NOT_ALLOWED', `this connection already holds the ${held} seat`);
  const seated = withSocketAt(state, socketId, side);
  const next: RoomState = counted(
    state,
    {
      ...seated,
      seats: { ...seated.seats, [side]: { ...seated.seats[side], tokenHash } },
    },
    remote,
  );
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
  if (state.result) {
    const { winner, reason } = state.result;
    return fail(
      'GAME_OVER',
      `the game is over: ${winner === null ? 'no winner' : `${winner} won`} (${reason})`,
    );
  }
  const toMove = state.game.position.toMove;
  if (toMove !== side) return fail('NOT_YOUR_TURN', `it is ${toMove}'s turn`);
  if (flagDue(state, state.at)) return fail('GAME_OVER', 'your time ran out');
  return playFor(state, side, text);
}

/** `side` (to move, in a game in play) plays `text`, judged by the rules, its clock updated. */
function playFor(state: RoomState, side: Side, text: string): Reduction {
  const parsed = parseMove(text);
  if (!parsed.ok) return fail('ILLEGAL_MOVE', parsed.error.message);
  const result = play(state.game, parsed.value);
  if (!result.ok) return fail('ILLEGAL_MOVE', result.error.message);
  const game = result.value;
  const canonical = makeMove(parsed.value);
  // The mover's clock: the time it ran deducted, the increment added; the first move is free.
  const clock = state.clock;
  const clockAfter = clock
    ? {
        at: state.at,
        ms:
          clock.running === side
            ? remainingAt(clock, state.at)[side] + clock.control.incrementMs
            : clock.remaining[side],
      }
    : null;
  const next = withMovePlayed(state, side, game, canonical, state.version + 1, clockAfter);
  const { state: after, event } = eventAfter(next, 'move', { side, move: canonical });
  return done(after, [event]);
}
