/**
 * The room reducer: every change to a room is a command, judged here and nowhere else into the
 * changes it makes (`judge`), which `reduce` folds into the state with `applyChange`.
 * Pure: `(RoomState, Command) → Result<{ state, events, changes, version }, RoomError>`; no I/O, no clock.
 */
import { type ChatChannel, type ChatMessage, MAX_PLIES, type RoomEvent } from '@bagh/protocol';
import {
  ABORTED,
  AGREED_DRAW,
  abandonment,
  canAbort,
  type DeclaredResult,
  flagAt,
  flaggedSide,
  type Game,
  makeMove,
  moverTimeAfterMove,
  parseMove,
  play,
  type Result,
  resignation,
  type Side,
  stopClock,
  timeout,
} from '@bagh/rules';
import { applyChange, eventOf, presenceChangeOf, type RoomChange, type VersionedChange } from './changes.js';
import {
  abandonOf,
  presenceDataOf,
  seatConnected,
  seatOf,
  sideOfToken,
  spectatorCount,
  withClusterPresence,
  withoutSocket,
  withSocketAt,
} from './presence.js';
import {
  atMaxPlies,
  botSeatOf,
  clockInPlay,
  otherSide,
  type PresenceCounts,
  type RoomError,
  type RoomState,
  roomError,
  seatTaken,
  timeRanOut,
} from './state.js';

/** Every command may carry `at`, the time it is judged at (epoch ms); without it no time passes. */
interface Timed {
  readonly at?: number | undefined;
  /**
   * The time the clocks are read at, when earlier than `at`: a move first sent while the store
   * refused changes is timed when it was sent (the room's hold on the mover's clock).
   */
  readonly clockAt?: number | undefined;
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
  /** What to store: one change per event, at its version. */
  readonly changes: readonly VersionedChange[];
  /** The version to acknowledge: for a move, the version of the event that applied it. */
  readonly version: number;
  /** A chat message to deliver to its channel's audience once the event is durable. */
  readonly chat?: ChatMessage;
}

export type Reduction = Result<Applied, RoomError>;

/**
 * A command judged: the state it leaves before its changes (time moved on, this node's sockets
 * moved, neither stored), and the changes, each one event. `ack`: the version to acknowledge
 * when it is not the last one (a resent move).
 */
export interface Verdict {
  readonly state: RoomState;
  readonly changes: readonly RoomChange[];
  readonly ack?: number;
  /** A move's verdict: the game after the move, as judging it played it from `state.game`. */
  readonly played?: Game;
}

export type Judgement = Result<Verdict, RoomError>;

const fail = (code: RoomError['code'], message: string): Judgement => ({
  ok: false,
  error: roomError(code, message),
});
const unchanged = (state: RoomState, ack?: number): Judgement => ({
  ok: true,
  value: { state, changes: [], ...(ack !== undefined ? { ack } : {}) },
});
const changed = (state: RoomState, change: RoomChange): Judgement => ({
  ok: true,
  value: { state, changes: [change] },
});

/** Judges the command, then applies its changes: each one moves the version on and is one event. */
export function reduce(before: RoomState, command: Command): Reduction {
  const judged = judge(before, command);
  if (!judged.ok) return judged;
  let { state } = judged.value;
  const events: RoomEvent[] = [];
  const changes: VersionedChange[] = [];
  let chat: ChatMessage | undefined;
  for (const change of judged.value.changes) {
    const judgedGame = change.kind === 'move' ? judged.value.played : undefined;
    state = applyChange(state, change, state.version + 1, judgedGame);
    events.push(eventOf(change, state));
    changes.push({ version: state.version, change });
    if (change.kind === 'chat') {
      const { kind: _, ...message } = change;
      chat = { roomId: state.roomId, ...message };
    }
  }
  const version = judged.value.ack ?? state.version;
  return { ok: true, value: { state, events, changes, version, ...(chat ? { chat } : {}) } };
}

/** What the command does to the room, or why it is refused. */
export function judge(before: RoomState, command: Command): Judgement {
  // Time only moves forward: the reducer never reads a clock, the command says when it is.
  const state = command.at !== undefined && command.at > before.at ? { ...before, at: command.at } : before;
  const clockAt = Math.min(command.clockAt ?? state.at, state.at);
  switch (command.type) {
    case 'join':
      return join(state, command.socketId, command.tokenHash, command.remote);
    case 'claim':
      return claim(state, command.socketId, command.side, command.tokenHash, command.remote);
    case 'move':
      return move(state, command.socketId, command.move, command.ply, clockAt);
    case 'connect': {
      const after = withSocketAt(state, command.socketId, seatStillValid(state, command.side));
      return presence(state, after, command.remote);
    }
    case 'disconnect':
      return presence(state, withoutSocket(state, command.socketId), command.remote);
    case 'presence':
      return presence(state, state, command.remote);
    case 'resign':
      return withPlayer(state, command.socketId, (side) => finish(state, resignation(side)));
    case 'abort':
      return withPlayer(state, command.socketId, () => {
        if (!canAbort(state.moveTexts.length))
          return fail('NOT_ALLOWED', 'both sides have moved: the game cannot be aborted');
        return finish(state, ABORTED);
      });
    case 'draw-offer':
      return withPlayer(state, command.socketId, (side) => {
        if (botSeatOf(state)) {
          // At the longest a room keeps, nobody can move on: the computer agrees.
          if (atMaxPlies(state.game)) return finish(state, AGREED_DRAW);
          return fail('NOT_ALLOWED', 'the computer plays on: it takes no draw offers');
        }
        if (state.drawOffer === otherSide(side)) return finish(state, AGREED_DRAW);
        if (state.drawOffer === side) return unchanged(state);
        return changed(state, { kind: 'draw', action: 'offer', side });
      });
    case 'draw-accept':
      return withPlayer(state, command.socketId, (side) => {
        if (state.drawOffer !== otherSide(side))
          return fail('NOT_ALLOWED', 'your opponent has offered no draw');
        return finish(state, AGREED_DRAW);
      });
    case 'draw-decline':
      return withPlayer(state, command.socketId, (side) => {
        if (state.drawOffer !== otherSide(side))
          return fail('NOT_ALLOWED', 'your opponent has offered no draw');
        return changed(state, { kind: 'draw', action: 'decline', side });
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
        return finish(state, abandonment(side, command.outcome));
      });
    case 'chat':
      return chat(state, command.socketId, command.channel, command.text);
    case 'flag': {
      const clock = clockInPlay(state);
      const flagged = clock && command.version === state.version ? flaggedSide(clock, clockAt) : null;
      if (flagged === null || clock === null) return unchanged(before);
      // The game ended when the time ran out, though judged later (a late timer, a restart, the
      // store away): its result, its snapshot and the archive say that moment.
      const ranOut = Math.min(state.at, flagAt(clock) ?? state.at);
      return finish({ ...state, at: ranOut }, timeout(flagged));
    }
    case 'abandon-timer': {
      const gone = abandonOf(state);
      if (command.version !== state.version || gone === null) return unchanged(before);
      if (before.at >= gone.claimableAt || state.at < gone.claimableAt) return unchanged(before);
      // The grace ran out: an event, so that everyone sees the game may now be claimed.
      return changed(state, presenceChangeOf(state));
    }
    case 'bot-move': {
      const bot = botSeatOf(state);
      if (command.version !== state.version || bot === null || state.result !== null)
        return unchanged(before);
      if (state.game.position.toMove !== bot.side || timeRanOut(state, clockAt)) return unchanged(before);
      return playFor(state, bot.side, command.move, clockAt);
    }
  }
}

/** Runs `then` for the seated player of a game in play; spectators are UNAUTHORIZED. */
function withPlayer(state: RoomState, socketId: string, then: (side: Side) => Judgement): Judgement {
  const side = seatOf(state, socketId);
  if (side === null) return fail('UNAUTHORIZED', 'only a seated player may do this');
  if (state.result !== null) return fail('GAME_OVER', 'the game is over');
  return then(side);
}

/** Ends the game with `result`; the clocks stop where they are (at 0 for a side whose time ran out). */
function finish(state: RoomState, result: DeclaredResult): Judgement {
  const clock = state.clock ? stopClock(state.clock, state.at).remaining : null;
  return changed(state, { kind: 'result', ...result, at: state.at, clock });
}

function rematch(state: RoomState, socketId: string, roomId: string | null): Judgement {
  const side = seatOf(state, socketId);
  if (side === null) return fail('UNAUTHORIZED', 'only a player may offer or accept a rematch');
  if (state.result === null) return fail('NOT_ALLOWED', 'the game is not over yet');
  if (state.rematch?.roomId) return fail('NOT_ALLOWED', 'the rematch has started');
  const accept = (id: string) => changed(state, { kind: 'rematch', action: 'accept', side, roomId: id });
  if (botSeatOf(state)) {
    // The computer always plays again: an offer is the start of the rematch (RoomManager.rematch).
    if (roomId === null) return fail('NOT_ALLOWED', 'against the computer a rematch starts at once');
    return accept(roomId);
  }
  if (roomId === null) {
    if (state.rematch?.offeredBy === side) return unchanged(state);
    if (state.rematch) return fail('NOT_ALLOWED', 'your opponent has offered a rematch: accept it');
    return changed(state, { kind: 'rematch', action: 'offer', side });
  }
  if (state.rematch?.offeredBy !== otherSide(side)) {
    return fail('NOT_ALLOWED', 'your opponent has offered no rematch');
  }
  return accept(roomId);
}

/** The chat messages a room keeps (both channels), so that a room stays quick to load and send. */
export const CHAT_MESSAGES_PER_ROOM = 500;

function chat(state: RoomState, socketId: string, channel: ChatChannel, text: string): Judgement {
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
  if (state.chat.length >= CHAT_MESSAGES_PER_ROOM) {
    return fail('RATE_LIMITED', `this room's chat is full (it keeps ${CHAT_MESSAGES_PER_ROOM} messages)`);
  }
  return changed(state, { kind: 'chat', channel, from: side ?? 'spectator', text, at: state.at });
}

const seatStillValid = (state: RoomState, side: Side | null): Side | null =>
  side !== null && state.seats[side].tokenHash !== null ? side : null;

/**
 * What a presence change is stored for. One node: what clients see (connected flags, spectator
 * count). Several: every count, for a node reads from the stored counts whether the room's
 * sockets are all its own (Room's localOnly): a seat's second socket on another node changes
 * nothing a client sees, but that node must hear the room from then on.
 */
const presenceKey = (state: RoomState): string =>
  state.presence
    ? `${state.presence.tiger}/${state.presence.goat}/${state.presence.spectators}`
    : `${seatConnected(state, 'tiger')}/${seatConnected(state, 'goat')}/${spectatorCount(state)}`;

/** With several nodes, the presence across nodes after the command; on one node, `after` as it is. */
const counted = (before: RoomState, after: RoomState, remote: PresenceCounts | undefined): RoomState =>
  remote && after.presence !== null ? withClusterPresence(before, after, remote) : after;

/**
 * Sockets moved (`moved`: this node's, not stored). A presence change is an event only when its
 * key changed (presenceKey); otherwise it is kept, not stored.
 */
function presence(before: RoomState, moved: RoomState, remote: PresenceCounts | undefined): Judgement {
  const after = counted(before, moved, remote);
  if (presenceKey(before) === presenceKey(after)) return unchanged(after);
  return changed(moved, presenceChangeOf(after));
}

function join(
  state: RoomState,
  socketId: string,
  tokenHash: string | undefined,
  remote: PresenceCounts | undefined,
): Judgement {
  let side: Side | null;
  if (tokenHash !== undefined) {
    side = sideOfToken(state, tokenHash);
    if (side === null) return fail('UNAUTHORIZED', 'this seat token belongs to no seat of this room');
  } else {
    // Without a token a socket keeps the seat it already proved it holds; anyone else watches.
    side = seatOf(state, socketId);
  }
  return presence(state, withSocketAt(state, socketId, side), remote);
}

function claim(
  state: RoomState,
  socketId: string,
  side: Side,
  tokenHash: string,
  remote: PresenceCounts | undefined,
): Judgement {
  if (state.imported) return fail('NOT_ALLOWED', 'an imported game is a replay: it has no seats to take');
  if (seatTaken(state.seats[side])) {
    // This very claim, answered UNAVAILABLE, was stored after all: its second try takes the seat.
    if (sideOfToken(state, tokenHash) === side) return join(state, socketId, tokenHash, remote);
    return fail('SEAT_TAKEN', `the ${side} seat is taken`);
  }
  const held = seatOf(state, socketId);
  if (held !== null) return fail('NOT_ALLOWED', `this connection already holds the ${held} seat`);
  const moved = withSocketAt(state, socketId, side);
  const seated = { ...moved, seats: { ...moved.seats, [side]: { ...moved.seats[side], tokenHash } } };
  const across = presenceDataOf(counted(state, seated, remote));
  return changed(moved, { kind: 'seat', side, tokenHash, ...(across ? { presence: across } : {}) });
}

function move(state: RoomState, socketId: string, text: string, ply: number, clockAt: number): Judgement {
  const side = seatOf(state, socketId);
  if (side === null) {
    return fail('UNAUTHORIZED', 'only a seated player may move: join with a seat token or claim a seat');
  }
  const played = state.moveTexts.length;
  if (ply < played) {
    const last = state.lastMove;
    if (ply === played - 1 && last !== null && last.side === side) {
      const parsed = parseMove(text);
      if (parsed.ok && makeMove(parsed.value) === last.text) return unchanged(state, last.version);
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
  if (timeRanOut(state, clockAt)) return fail('GAME_OVER', 'your time ran out');
  return playFor(state, side, text, clockAt);
}

/**
 * `side` (to move, in a game in play) plays `text`, judged by the rules; in a timed game the
 * mover's clock is read at `clockAt` and the other's starts at the move's time (`state.at`).
 */
function playFor(state: RoomState, side: Side, text: string, clockAt: number): Judgement {
  if (atMaxPlies(state.game)) {
    return fail(
      'NOT_ALLOWED',
      `a room keeps at most ${MAX_PLIES} moves, and the clocks have stopped: offer a draw or resign`,
    );
  }
  const parsed = parseMove(text);
  if (!parsed.ok) return fail('ILLEGAL_MOVE', parsed.error.message);
  const legal = play(state.game, parsed.value);
  if (!legal.ok) return fail('ILLEGAL_MOVE', legal.error.message);
  const canonical = makeMove(parsed.value);
  const { clock } = state;
  const change = clock
    ? { kind: 'move' as const, move: canonical, at: state.at, ms: moverTimeAfterMove(clock, side, clockAt) }
    : { kind: 'move' as const, move: canonical };
  return { ok: true, value: { state, changes: [change], played: legal.value } };
}
