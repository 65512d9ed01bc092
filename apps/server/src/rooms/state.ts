/**
 * The state of one room: plain immutable data, replaced (never mutated) by the reducer; and a
 * new room's state. Its changes are in changes.ts, its views in snapshot.ts.
 */
import {
  type BotLevel,
  BotLevel as BotLevelSchema,
  type ChatMessage,
  type ErrorCode,
  type GameResult,
  GameResult as GameResultSchema,
  MAX_PLIES,
  ResolvedOptions,
  Side as SideSchema,
  type TimeControl,
  TimeControl as TimeControlSchema,
  Variant as VariantSchema,
} from '@bagh/protocol';
import {
  type Clock,
  flagDue,
  type Game,
  gameFromMoves,
  makeMove,
  makePosition,
  type Options,
  resolveOptions,
  SIDES,
  type Side,
  startClock,
  type Variant,
} from '@bagh/rules';
import { z } from 'zod';
import type { RoomRecord } from '../storage/types.js';

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

/** How many rematches back a player's token still holds their seat. */
export const MAX_FORMER_TOKENS = 8;

const SeatInit = z.object({
  side: SideSchema,
  tokenHash: z.string(),
  /**
   * A rematch: the hashes of this player's tokens in the rooms it follows (the last first: the
   * room before, the one before that, …). Each holds this seat too, so a player whose page missed
   * `seat:assigned` (away when a rematch started, once or several times) takes their seat with
   * the token they have.
   */
  formerTokenHashes: z.array(z.string()).max(MAX_FORMER_TOKENS).optional(),
});
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
  /** The clocks (epoch ms), as the match layer keeps them; null in an untimed room. */
  readonly clock: Clock | null;
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

/** NOT_FOUND's message for `roomId`, whatever was sent as one (cut to a room id's longest). */
export const noRoom = (roomId: unknown): string => `no room ${String(roomId).slice(0, 32)}`;

/** The game has the most moves a room keeps (MAX_PLIES): nobody moves on, and its clocks stop. */
export const atMaxPlies = (game: Game): boolean => game.moves.length >= MAX_PLIES;

/** The clocks of a game in play: null in an untimed room, and once the game is over. */
export const clockInPlay = (state: RoomState): Clock | null => (state.result === null ? state.clock : null);

/** Whether the running clock of a game in play has run out by `at`. */
export function timeRanOut(state: RoomState, at: number): boolean {
  const clock = clockInPlay(state);
  return clock !== null && flagDue(clock, at);
}

export const otherSide = (side: Side): Side => (side === 'tiger' ? 'goat' : 'tiger');

export interface RoomSetup {
  readonly variant: Variant;
  readonly options: Partial<Options>;
  readonly creator: z.infer<typeof SeatInit> | null;
  readonly opponent?: z.infer<typeof SeatInit> | undefined;
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
  const built = gameFromMoves({
    variant: setup.variant,
    // A room stored before fixed rules asked otherwise were refused (Bagh Chal's goatsFirst false)
    // plays as it did then: the variant's rules on top.
    options: resolveOptions(setup.variant, setup.options),
    start: imported?.start,
    moves: imported?.moves ?? [],
  });
  if (!built.ok) {
    const e = built.error;
    throw new Error(
      e.stage === 'move'
        ? `room ${roomId}: imported move ${e.move}: ${e.detail}`
        : `cannot start ${setup.variant}: ${e.detail}`,
    );
  }
  const game = built.value;
  const moveTexts = game.moves.map(makeMove);
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
    clock: control ? startClock(control, at) : null,
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
