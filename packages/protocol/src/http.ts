import { unsupportedOptions } from '@bagh/rules';
import { z } from 'zod';
import { BotLevel, GameOptions, RoomId, SeatToken, Side, SideChoice, Variant } from './common.js';
import { EpochMs, SeatState, TimeControl } from './snapshot.js';

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
    // An option the variant does not have is refused, not silently kept (RULES.md R12, R23).
    for (const name of unsupportedOptions(body.variant, body.options)) {
      context.addIssue({
        code: 'custom',
        path: ['options', name],
        message: `${body.variant} has no option ${name}`,
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
export const ImportRecordBody = z.object({ record: z.string().min(1).max(16_000) }).strict();
export type ImportRecordBody = z.infer<typeof ImportRecordBody>;

export const ImportRecordReply = z.object({ roomId: RoomId, url: z.string() });
export type ImportRecordReply = z.infer<typeof ImportRecordReply>;
