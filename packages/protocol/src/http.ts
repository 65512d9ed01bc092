import { optionRefusal, unsupportedOptions } from '@bagh/rules';
import { z } from 'zod';
import { BotLevel, GameOptions, RoomId, SeatToken, Side, SideChoice, Variant } from './common.js';
import { MAX_RECORD_CHARS } from './limits.js';
import { EpochMs, GameResult, SeatState, Snapshot, TimeControl } from './snapshot.js';

export const CreateRoomBody = z
  .object({
    variant: Variant,
    options: GameOptions.optional(),
    side: SideChoice,
    /** The time control; absent or null: an untimed game. */
    clock: TimeControl.strict().nullable().optional(),
    /** Listed at `GET /api/live` while in play (default false). */
    public: z.boolean().optional(),
    /** The other seat is the computer's, at this level (absent: a person takes it through the link). */
    opponent: z.object({ bot: BotLevel }).strict().optional(),
  })
  .strict()
  .superRefine((body, context) => {
    // An option the variant does not have, or one its rules fix asked otherwise, is refused, not
    // silently kept or overridden (RULES.md R10, R12, R13, R23).
    for (const name of unsupportedOptions(body.variant, body.options)) {
      context.addIssue({
        code: 'custom',
        path: ['options', name],
        message: optionRefusal(body.variant, name),
      });
    }
  });
export type CreateRoomBody = z.infer<typeof CreateRoomBody>;

export const CreateRoomReply = z.object({
  roomId: RoomId,
  side: Side,
  seatToken: SeatToken,
  /** The room's shareable link: `/r/<roomId>` (absolute when PUBLIC_URL is set). */
  url: z.string(),
});
export type CreateRoomReply = z.infer<typeof CreateRoomReply>;

export const RoomParams = z.object({ roomId: RoomId });
export type RoomParams = z.infer<typeof RoomParams>;

/** One public room in play, as listed at `GET /api/live`. */
export const LiveRoom = z.object({
  roomId: RoomId,
  variant: Variant,
  seats: z.object({ tiger: SeatState, goat: SeatState }),
  /** Moves played so far. */
  moves: z.number().int().min(0),
  spectators: z.number().int().min(0),
  timeControl: TimeControl.nullable(),
  createdAt: EpochMs,
});
export type LiveRoom = z.infer<typeof LiveRoom>;

export const LiveReply = z.object({ rooms: z.array(LiveRoom) });
export type LiveReply = z.infer<typeof LiveReply>;

/** `POST /api/records`: a RULES.md R42 game record to open as a finished room. */
export const ImportRecordBody = z.object({ record: z.string().min(1).max(MAX_RECORD_CHARS) }).strict();
export type ImportRecordBody = z.infer<typeof ImportRecordBody>;

export const ImportRecordReply = z.object({ roomId: RoomId, url: z.string() });
export type ImportRecordReply = z.infer<typeof ImportRecordReply>;

/** `result=` of `GET /api/games`: the games a side won, or those nobody won. */
export const GamesResultFilter = z.enum(['tiger', 'goat', 'draw']);
export type GamesResultFilter = z.infer<typeof GamesResultFilter>;

/** A `next` cursor of `GET /api/games` (opaque to clients: pass it back as `before`). */
export const GamesCursor = z
  .string()
  .regex(/^\d{1,16}\.[A-Za-z0-9_-]{1,64}$/, 'not a cursor of this listing');

/** `GET /api/games` query: filters, the cursor of the page before, and the page size. */
export const GamesQuery = z
  .object({
    variant: Variant.optional(),
    result: GamesResultFilter.optional(),
    before: GamesCursor.optional(),
    limit: z.coerce.number().int().min(1).max(100).default(30),
  })
  .strict();
export type GamesQuery = z.input<typeof GamesQuery>;

/** One finished game, as `GET /api/games` lists it. */
export const ArchivedGameView = Snapshot.pick({
  roomId: true,
  variant: true,
  options: true,
  timeControl: true,
}).extend({
  result: GameResult,
  /** Moves played. */
  moves: z.number().int().min(0),
  startedAt: EpochMs,
  finishedAt: EpochMs,
  /** The seat the computer held, and its level (absent when two people played). */
  bots: z.object({ tiger: BotLevel.optional(), goat: BotLevel.optional() }).optional(),
});
export type ArchivedGameView = z.infer<typeof ArchivedGameView>;

export const GamesReply = z.object({
  games: z.array(ArchivedGameView),
  /** Present when more games may follow: pass it as `before` for the next page. */
  next: GamesCursor.optional(),
});
export type GamesReply = z.infer<typeof GamesReply>;

/** `GET /api/tablebase` query: a RULES.md R41 position string of Bagh Chal's sliding phase. */
export const TablebaseQuery = z.object({ position: z.string().trim().min(1).max(120) });
export type TablebaseQuery = z.infer<typeof TablebaseQuery>;

/** Who wins with best play; `draw`: neither can force a win. */
export const TablebaseResult = z.enum(['tiger', 'goat', 'draw']);
export type TablebaseResult = z.infer<typeof TablebaseResult>;

/** Plies to the game's end with best play (the winner the fastest, the loser the slowest). */
const Plies = z.number().int().min(0);

/** One legal move and the value of the position it leads to (its plies count the move itself). */
export const TablebaseMove = z.object({
  move: z.string().min(1),
  result: TablebaseResult,
  plies: Plies.optional(),
});
export type TablebaseMove = z.infer<typeof TablebaseMove>;

/**
 * `GET /api/tablebase` 200 reply: the position's value (`plies` absent for a draw) and every legal
 * move's, best first for the side to move. Exact for play without history: it ignores R13.
 */
export const TablebaseReply = z.object({
  result: TablebaseResult,
  plies: Plies.optional(),
  moves: z.array(TablebaseMove).readonly(),
});
export type TablebaseReply = z.infer<typeof TablebaseReply>;
