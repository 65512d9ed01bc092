/** The state of one room: plain immutable data, replaced (never mutated) by the reducer. */
import {
  type BotLevel,
  BotLevel as BotLevelSchema,
  type ChatChannel,
  ChatChannel as ChatChannelSchema,
  type ChatMessage,
  type ClockView,
  type ErrorCode,
  type GameResult,
  GameResult as GameResultSchema,
  ResolvedOptions,
  Role as RoleSchema,
  type RoomEvent,
  Side as SideSchema,
  type Snapshot,
  type TimeControl,
  TimeControl as TimeControlSchema,
  Variant as VariantSchema,
} from '@bagh/protocol';
import {
  createGame,
  type Game,
  makeMove,
  makePosition,
  type Options,
  parsePosition,
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
  /** When the last socket of a taken seat left (epoch ms); null while connected. Not stored. */
  readonly goneSince: number | null;
  /** The computer holds this seat, at this level (then it has no token and no sockets). */
  readonly bot: BotLevel | null;
}

export interface LastMove {
  readonly side: Side;
  readonly text: string;
  /** The version of the event that applied it (the answer to a resend). */
  readonly version: number;
}

const SeatInit = z.object({ side: SideSchema, tokenHash: z.string() });
const BotInit = z.object({ side: SideSchema, level: BotLevelSchema });
export type BotSeat = z.infer<typeof BotInit>;

/** How a room was set up; stored once, as the record's `init` (fields after `creator` are optional for older rooms). */
export const RoomInit = z.object({
  variant: VariantSchema,
  options: ResolvedOptions,
  /** The seat taken at creation; null for an imported game. */
  creator: SeatInit.nullable(),
  /** A rematch starts with both seats taken. */
  opponent: SeatInit.optional(),
  /** The seat the computer holds, and its level. */
  bot: BotInit.optional(),
  clock: TimeControlSchema.nullable().optional(),
  public: z.boolean().optional(),
  /** The room this one is a rematch of. */
  rematchOf: z.string().optional(),
  /** An imported record: its start position (when not the variant's), moves, result and headers. */
  imported: z
    .object({
      start: z.string().optional(),
      moves: z.array(z.string()),
      result: GameResultSchema.nullable(),
      headers: z.record(z.string(), z.string()),
    })
    .optional(),
});
export type RoomInit = z.infer<typeof RoomInit>;

/** The clocks: each side's remaining ms, and since when (`since`, epoch ms) the running one runs. */
export interface ClockState {
  readonly control: TimeControl;
  readonly remaining: { readonly [S in Side]: number };
  readonly running: Side | null;
  readonly since: number;
}

export interface StoredChat extends Omit<ChatMessage, 'roomId'> {}

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
  /** The time of the last command (epoch ms): what the snapshot describes. */
  readonly at: number;
  /** How long a seat must be empty before its opponent may claim the game (config, not stored). */
  readonly abandonGraceMs: number;
  readonly clock: ClockState | null;
  /** The game's result: the rules' outcome, or the room's (resign, timeout, …). */
  readonly result: GameResult | null;
  readonly drawOffer: Side | null;
  readonly rematch: { readonly offeredBy: Side; readonly roomId: string | null } | null;
  readonly chat: readonly StoredChat[];
  readonly public: boolean;
  readonly imported: boolean;
  /**
   * Several nodes (a shared store): who is here across every node, as last counted and stored
   * (the `presence` change), so that every node shows the same presence and the same `goneSince`.
   * Null on a single node: presence is then this process's sockets (`seats.*.sockets`, `spectators`).
   */
  readonly presence: PresenceCounts | null;
}

/** Sockets per place in a room: in a seat, or watching. */
export interface PresenceCounts {
  readonly tiger: number;
  readonly goat: number;
  readonly spectators: number;
}

export const NO_PRESENCE: PresenceCounts = { tiger: 0, goat: 0, spectators: 0 };

export const DEFAULT_ABANDON_GRACE_MS = 30_000;

/** Settings of the server, not of the room: kept out of storage. */
export interface RoomEnv {
  /** Now, epoch ms. */
  readonly at: number;
  readonly abandonGraceMs?: number;
  /** Several nodes share the room: presence is counted across nodes and stored (`presence`). */
  readonly sharedPresence?: boolean;
}

export interface RoomError {
  readonly code: ErrorCode;
  readonly message: string;
}
export const roomError = (code: ErrorCode, message: string): RoomError => ({ code, message });

export const otherSide = (side: Side): Side => (side === 'tiger' ? 'goat' : 'tiger');

export interface RoomSetup {
  readonly variant: Variant;
  readonly options: Partial<Options>;
  readonly creator: { side: Side; tokenHash: string } | null;
  readonly opponent?: { side: Side; tokenHash: string } | undefined;
  readonly bot?: BotSeat | undefined;
  readonly clock?: TimeControl | null | undefined;
  readonly public?: boolean | undefined;
  readonly rematchOf?: string | undefined;
  readonly imported?: RoomInit['imported'];
}

/** A new room, at version 0, whose creator (and, for a rematch, opponent) holds their side. */
export function newRoomState(
  roomId: string,
  createdAt: number,
  setup: RoomSetup,
  env: Partial<RoomEnv> = {},
): RoomState {
  const imported = setup.imported;
  let start: Game['start'] | undefined;
  if (imported?.start !== undefined) {
    const parsed = parsePosition(imported.start);
    if (!parsed.ok) throw new Error(`cannot start ${setup.variant}: ${parsed.error.message}`);
    start = parsed.value;
  }
  const created = createGame(setup.variant, setup.options, start);
  if (!created.ok) throw new Error(`cannot start ${setup.variant}: ${created.error.message}`);
  let game = created.value;
  const moveTexts: string[] = [];
  for (const text of imported?.moves ?? []) {
    const played = playMoveText(game, text);
    if (!played.ok) throw new Error(`room ${roomId}: imported move ${text}: ${played.error.message}`);
    game = played.value;
    moveTexts.push(makeMove(game.moves[game.moves.length - 1]!));
  }
  const at = env.at ?? createdAt;
  const seatFor = (side: Side): SeatState => {
    if (setup.bot?.side === side) return { ...freeSeat, bot: setup.bot.level };
    const holder = [setup.creator, setup.opponent].find((s) => s?.side === side);
    // A taken seat nobody holds yet counts as gone from the start.
    return holder ? { tokenHash: holder.tokenHash, sockets: [], goneSince: at, bot: null } : freeSeat;
  };
  const control = setup.clock ?? null;
  const init: RoomInit = {
    variant: setup.variant,
    options: game.options,
    creator: setup.creator,
    ...(setup.opponent ? { opponent: setup.opponent } : {}),
    ...(setup.bot ? { bot: setup.bot } : {}),
    clock: control,
    public: setup.public ?? false,
    ...(setup.rematchOf !== undefined ? { rematchOf: setup.rematchOf } : {}),
    ...(imported ? { imported } : {}),
  };
  return {
    roomId,
    init,
    variant: setup.variant,
    options: game.options,
    createdAt,
    version: 0,
    game,
    moveTexts,
    position: makePosition(game.position),
    lastMove: null,
    seats: { tiger: seatFor('tiger'), goat: seatFor('goat') },
    spectators: [],
    at,
    abandonGraceMs: env.abandonGraceMs ?? DEFAULT_ABANDON_GRACE_MS,
    clock: control
      ? {
          control,
          remaining: { tiger: control.initialMs, goat: control.initialMs },
          running: null,
          since: at,
        }
      : null,
    result: imported ? imported.result : game.outcome,
    drawOffer: null,
    rematch: null,
    chat: [],
    public: (setup.public ?? false) && !imported,
    imported: imported !== undefined,
    presence: env.sharedPresence ? NO_PRESENCE : null,
  };
}

const freeSeat: SeatState = { tokenHash: null, sockets: [], goneSince: null, bot: null };

/** The computer's seat of a room, or null when two people play. */
export function botSeatOf(state: RoomState): BotSeat | null {
  for (const side of SIDES) {
    const level = state.seats[side].bot;
    if (level !== null) return { side, level };
  }
  return null;
}

/** Whether someone (a person or the computer) holds the seat. */
export const seatTaken = (seat: SeatState): boolean => seat.tokenHash !== null || seat.bot !== null;

/** What storage keeps of a new room. */
export const recordOf = (state: RoomState): RoomRecord => ({
  roomId: state.roomId,
  createdAt: state.createdAt,
  init: state.init,
  version: state.version,
  changes: [],
});

const Remaining = z.object({ tiger: z.number(), goat: z.number() });

/** Presence across nodes, as stored: counts per place and, per seat, since when it is empty. */
const PresenceData = z.object({
  tiger: z.number().int().min(0),
  goat: z.number().int().min(0),
  spectators: z.number().int().min(0),
  gone: z.object({ tiger: z.number().nullable(), goat: z.number().nullable() }),
});
export type PresenceData = z.infer<typeof PresenceData>;

/** The durable changes, by kind; the store keeps their data without looking inside. */
const CHANGE_DATA = {
  /** `at` and `ms` (the mover's remaining time after the move, increment added) in timed games. */
  move: z.object({ move: z.string(), at: z.number().optional(), ms: z.number().optional() }),
  /** `presence`: several nodes only, presence across nodes after the seat was taken. */
  seat: z.object({ side: SideSchema, tokenHash: z.string(), presence: PresenceData.optional() }),
  /** Several nodes only (presence on one node is not stored): who is here, across nodes. */
  presence: PresenceData,
  /** A result decided by the room, with the clocks as they stopped. */
  result: z.object({
    winner: SideSchema.nullable(),
    reason: GameResultSchema.shape.reason,
    at: z.number(),
    clock: Remaining.nullable(),
  }),
  draw: z.object({ action: z.enum(['offer', 'decline']), side: SideSchema }),
  rematch: z.object({ action: z.enum(['offer', 'accept']), side: SideSchema, roomId: z.string().optional() }),
  chat: z.object({ channel: ChatChannelSchema, from: RoleSchema, text: z.string(), at: z.number() }),
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

/** The state after `side` played `move` (already judged legal) at `at`; the clock keeps `ms`. */
export function withMovePlayed(
  state: RoomState,
  side: Side,
  game: Game,
  text: string,
  version: number,
  clockAfter: { at: number; ms: number } | null,
): RoomState {
  const over = game.outcome !== null;
  const clock: ClockState | null =
    state.clock && clockAfter
      ? {
          ...state.clock,
          remaining: { ...state.clock.remaining, [side]: clockAfter.ms },
          running: over ? null : otherSide(side),
          since: clockAfter.at,
        }
      : state.clock;
  return {
    ...state,
    game,
    moveTexts: [...state.moveTexts, text],
    position: makePosition(game.position),
    lastMove: { side, text, version },
    clock,
    result: game.outcome ? { winner: game.outcome.winner, reason: game.outcome.reason } : null,
    // An offer lapses when the offerer's opponent moves.
    drawOffer: state.drawOffer === side ? state.drawOffer : null,
  };
}

/** The state with the game ended by the room; the clocks stop as they are (`clock`). */
export function withResult(
  state: RoomState,
  result: GameResult,
  stopped: { readonly tiger: number; readonly goat: number } | null,
): RoomState {
  return {
    ...state,
    result,
    drawOffer: null,
    clock: state.clock && stopped ? { ...state.clock, remaining: stopped, running: null } : state.clock,
  };
}

/** The stored form of a room's presence across nodes; null on a single node. */
export function presenceDataOf(state: RoomState): PresenceData | null {
  if (state.presence === null) return null;
  return {
    ...state.presence,
    gone: { tiger: state.seats.tiger.goneSince, goat: state.seats.goat.goneSince },
  };
}

function withPresenceData(state: RoomState, data: PresenceData): RoomState {
  const { gone, ...counts } = data;
  return {
    ...state,
    presence: counts,
    seats: {
      tiger: { ...state.seats.tiger, goneSince: gone.tiger },
      goat: { ...state.seats.goat, goneSince: gone.goat },
    },
  };
}

/**
 * Replays one stored change onto a room being rebuilt (or catching up with changes another
 * node stored: the changes after its version, in order).
 */
export function replay(state: RoomState, change: StoredChange): RoomState {
  switch (change.kind) {
    case 'move': {
      const { move, at, ms } = CHANGE_DATA.move.parse(change.data);
      const side = state.game.position.toMove;
      const played = playMoveText(state.game, move);
      if (!played.ok)
        throw new Error(`room ${state.roomId}: move ${move} at v${change.version}: ${played.error.message}`);
      const game = played.value;
      const text = makeMove(game.moves[game.moves.length - 1]!);
      const clockAfter = at !== undefined && ms !== undefined ? { at, ms } : null;
      return withMovePlayed(state, side, game, text, change.version, clockAfter);
    }
    case 'seat': {
      const { side, tokenHash, presence } = CHANGE_DATA.seat.parse(change.data);
      const seated = { ...state, seats: { ...state.seats, [side]: { ...state.seats[side], tokenHash } } };
      return presence ? withPresenceData(seated, presence) : seated;
    }
    case 'presence':
      return withPresenceData(state, CHANGE_DATA.presence.parse(change.data));
    case 'result': {
      const { winner, reason, clock } = CHANGE_DATA.result.parse(change.data);
      return withResult(state, { winner, reason }, clock);
    }
    case 'draw': {
      const { action, side } = CHANGE_DATA.draw.parse(change.data);
      return { ...state, drawOffer: action === 'offer' ? side : null };
    }
    case 'rematch': {
      const { action, side, roomId } = CHANGE_DATA.rematch.parse(change.data);
      if (action === 'offer') return { ...state, rematch: { offeredBy: side, roomId: null } };
      // Against the computer the player's own offer starts the rematch at once.
      const offeredBy = state.rematch?.offeredBy ?? (botSeatOf(state) ? side : otherSide(side));
      return { ...state, rematch: { offeredBy, roomId: roomId ?? null } };
    }
    case 'chat': {
      const message = CHANGE_DATA.chat.parse(change.data);
      return { ...state, chat: [...state.chat, message] };
    }
    default:
      throw new Error(`room ${state.roomId}: unknown stored change '${change.kind}' at v${change.version}`);
  }
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

/** Each side's remaining ms at `at` (the running clock counted down, never below 0). */
export function remainingAt(clock: ClockState, at: number): { tiger: number; goat: number } {
  const left = { ...clock.remaining };
  if (clock.running !== null)
    left[clock.running] = Math.max(0, left[clock.running] - Math.max(0, at - clock.since));
  return left;
}

/** When the running clock reaches 0 (epoch ms), or null when no clock runs. */
export function flagAt(state: RoomState): number | null {
  const clock = state.clock;
  if (!clock || clock.running === null || state.result !== null) return null;
  return clock.since + clock.remaining[clock.running];
}

/** Whether the running side's time is out at `at`. */
export function flagDue(state: RoomState, at: number): boolean {
  const due = flagAt(state);
  return due !== null && at >= due;
}

/** Whether someone holds `side`'s seat from a socket (on any node, when several share the room). */
export function seatConnected(state: RoomState, side: Side): boolean {
  return state.presence ? state.presence[side] > 0 : state.seats[side].sockets.length > 0;
}

/** How many sockets watch the room (on every node, when several share it). */
export function spectatorCount(state: RoomState): number {
  return state.presence ? state.presence.spectators : state.spectators.length;
}

/** This node's sockets per place. */
export function localPresence(state: RoomState): PresenceCounts {
  return {
    tiger: state.seats.tiger.sockets.length,
    goat: state.seats.goat.sockets.length,
    spectators: state.spectators.length,
  };
}

/**
 * Presence across nodes after a command: this node's sockets (already moved by the command) plus
 * `remote`, the other nodes' sockets. A taken seat whose count falls to 0 is gone from now.
 */
export function withClusterPresence(before: RoomState, after: RoomState, remote: PresenceCounts): RoomState {
  const local = localPresence(after);
  const counts: PresenceCounts = {
    tiger: local.tiger + remote.tiger,
    goat: local.goat + remote.goat,
    spectators: local.spectators + remote.spectators,
  };
  const seat = (side: Side): SeatState => {
    const held = after.seats[side];
    if (held.tokenHash === null) return { ...held, goneSince: null };
    if (counts[side] > 0) return { ...held, goneSince: null };
    const was = before.seats[side];
    const wasConnected = seatConnected(before, side) || was.sockets.length > 0;
    return { ...held, goneSince: wasConnected ? after.at : (was.goneSince ?? after.at) };
  };
  return { ...after, presence: counts, seats: { tiger: seat('tiger'), goat: seat('goat') } };
}

/** The seated player gone long enough for the opponent, who is here, to claim (or about to be). */
export function abandonOf(state: RoomState): { side: Side; goneSince: number; claimableAt: number } | null {
  if (state.result !== null || state.imported) return null;
  for (const side of SIDES) {
    const seat = state.seats[side];
    const opponent = state.seats[otherSide(side)];
    if (seat.tokenHash === null || seatConnected(state, side) || seat.goneSince === null) continue;
    if (opponent.tokenHash === null || !seatConnected(state, otherSide(side))) continue;
    return { side, goneSince: seat.goneSince, claimableAt: seat.goneSince + state.abandonGraceMs };
  }
  return null;
}

/** The chat a recipient may read: the players' channel, and the spectators' for spectators. */
export function chatFor(state: RoomState, spectator: boolean, limit = 100): ChatMessage[] {
  return state.chat
    .filter((m) => spectator || m.channel === 'players')
    .slice(-limit)
    .map((m) => ({ roomId: state.roomId, ...m }));
}

export const chatAudience = (channel: ChatChannel, roomId: string): string =>
  channel === 'players' ? roomId : `${roomId}:spectators`;

const clockView = (state: RoomState): ClockView | null => {
  if (!state.clock) return null;
  return {
    ...remainingAt(state.clock, state.at),
    running: state.result === null ? state.clock.running : null,
  };
};

/** The public view of a room: everything anyone may see, never a token hash. */
export function snapshotOf(state: RoomState): Snapshot {
  const { game } = state;
  const abandon = abandonOf(state);
  const seat = (side: Side) => {
    const held = state.seats[side];
    if (held.bot !== null) return { taken: true, connected: true, bot: held.bot };
    return { taken: held.tokenHash !== null, connected: seatConnected(state, side) };
  };
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
    result: state.result ? { ...state.result } : null,
    seats: { tiger: seat('tiger'), goat: seat('goat') },
    spectators: spectatorCount(state),
    at: state.at,
    timeControl: state.clock ? { ...state.clock.control } : null,
    clock: clockView(state),
    drawOffer: state.drawOffer,
    rematch: state.rematch
      ? {
          offeredBy: state.rematch.offeredBy,
          ...(state.rematch.roomId ? { roomId: state.rematch.roomId } : {}),
        }
      : null,
    abandon: abandon ? { ...abandon, claimable: state.at >= abandon.claimableAt } : null,
    public: state.public,
    imported: state.imported,
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
  const leave = (seat: SeatState): SeatState => {
    const sockets = drop(seat.sockets);
    const emptied = seat.sockets.length > 0 && sockets.length === 0 && seat.tokenHash !== null;
    return { ...seat, sockets, goneSince: emptied ? state.at : seat.goneSince };
  };
  return {
    ...state,
    seats: { tiger: leave(state.seats.tiger), goat: leave(state.seats.goat) },
    spectators: drop(state.spectators),
  };
}

/** Places a socket in a seat (side) or among the spectators (null), wherever it was before. */
export function withSocketAt(state: RoomState, socketId: string, side: Side | null): RoomState {
  const base = withoutSocket(state, socketId);
  if (side === null) return { ...base, spectators: [...base.spectators, socketId] };
  const seat = base.seats[side];
  return {
    ...base,
    seats: { ...base.seats, [side]: { ...seat, sockets: [...seat.sockets, socketId], goneSince: null } },
  };
}

/** Builds the versioned event that follows `state` (the state already holds the change). */
export function eventAfter(
  state: RoomState,
  type: RoomEvent['type'],
  extra: { side?: Side | undefined; move?: string } = {},
): { state: RoomState; event: RoomEvent } {
  const next = { ...state, version: state.version + 1 };
  return {
    state: next,
    event: {
      roomId: next.roomId,
      version: next.version,
      type,
      ...(extra.side !== undefined ? { side: extra.side } : {}),
      ...(extra.move !== undefined ? { move: extra.move } : {}),
      snapshot: snapshotOf(next),
    },
  };
}
