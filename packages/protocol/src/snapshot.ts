import { DECLARED_REASONS, OUTCOME_REASONS } from '@bagh/rules';
import { z } from 'zod';
import { BotLevel, ResolvedOptions, RoomId, Side, Variant, Version } from './common.js';
import { TIME_CONTROL_LIMITS } from './limits.js';

/**
 * A seat: `taken` by someone, `connected` while any of its holder's sockets is here. `bot`: the
 * computer holds it, at this level (it is then always taken and connected); absent for a person.
 */
export const SeatState = z.object({
  taken: z.boolean(),
  connected: z.boolean(),
  bot: BotLevel.nullable().optional(),
});

/**
 * Why a game ended: the rules' own (`captures`, `trapped`, `blocked`, RULES.md R14/R15/R24) or
 * the room's (`resign`, `timeout`, `agreement`, `abandoned`, `aborted`).
 */
export const ResultReason = z.enum([...OUTCOME_REASONS, ...DECLARED_REASONS]);
export type ResultReason = z.infer<typeof ResultReason>;
/**
 * A result's reason as the server sends it: a ResultReason, or `''` for the result of an imported
 * record that names none (no `Termination` header, R42).
 */
export const GameResultReason = z.enum([...ResultReason.options, '']);
export type GameResultReason = z.infer<typeof GameResultReason>;
/** `winner: null` is a draw (agreement, abandoned by claim of a draw) or an aborted game. */
export const GameResult = z.object({ winner: Side.nullable(), reason: GameResultReason });
export type GameResult = z.infer<typeof GameResult>;

/** Epoch milliseconds (server time). */
export const EpochMs = z.number().int().min(0);
/** A duration in milliseconds. */
export const Millis = z.number().int().min(0);

/** A time control: each side starts with `initialMs` and gains `incrementMs` after each of its moves. */
export const TimeControl = z.object({
  initialMs: z.number().int().min(TIME_CONTROL_LIMITS.initialMs.min).max(TIME_CONTROL_LIMITS.initialMs.max),
  incrementMs: z
    .number()
    .int()
    .min(TIME_CONTROL_LIMITS.incrementMs.min)
    .max(TIME_CONTROL_LIMITS.incrementMs.max),
});
export type TimeControl = z.infer<typeof TimeControl>;

/** Each side's remaining time as of the snapshot's `at`; `running` is the side whose clock runs. */
export const ClockView = z.object({ tiger: Millis, goat: Millis, running: Side.nullable() });
export type ClockView = z.infer<typeof ClockView>;

/** A rematch offered by `offeredBy`; `roomId` once accepted: the new room, sides swapped. */
export const RematchView = z.object({ offeredBy: Side, roomId: RoomId.optional() });
export type RematchView = z.infer<typeof RematchView>;

/**
 * A seated player whose every connection is gone while the game goes on and the opponent is
 * here: since `goneSince`; the opponent may claim from `claimableAt` (`claimable` as of `at`).
 */
export const AbandonView = z.object({
  side: Side,
  goneSince: EpochMs,
  claimableAt: EpochMs,
  claimable: z.boolean(),
});
export type AbandonView = z.infer<typeof AbandonView>;

/** The public state of a room: everything anyone may see, never a seat token. */
export const Snapshot = z.object({
  roomId: RoomId,
  version: Version,
  variant: Variant,
  options: ResolvedOptions,
  /** RULES.md position string (R41). */
  position: z.string(),
  /** The position the moves start from (R41), when it is not the variant's: a record imported with one. */
  start: z.string().optional(),
  /** Move texts so far (R40, canonical). */
  moves: z.array(z.string()),
  toMove: Side,
  goatsInHand: z.number().int(),
  captured: z.number().int(),
  result: GameResult.nullable(),
  seats: z.object({ tiger: SeatState, goat: SeatState }),
  spectators: z.number().int().min(0),
  /** The server time this snapshot describes (clocks and `abandon` are as of it). */
  at: EpochMs,
  /** The room's time control, or null for untimed games. */
  timeControl: TimeControl.nullable(),
  clock: ClockView.nullable(),
  drawOffer: Side.nullable(),
  rematch: RematchView.nullable(),
  abandon: AbandonView.nullable(),
  /** Listed at `GET /api/live` while in play. */
  public: z.boolean(),
  /** Made by `POST /api/records`: a replay, no seats to take. */
  imported: z.boolean(),
});
export type Snapshot = z.infer<typeof Snapshot>;
