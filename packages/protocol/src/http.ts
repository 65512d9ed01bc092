import { z } from 'zod';
import { GameOptions, RoomId, SeatToken, Side, SideChoice, Variant } from './common.js';

export const CreateRoomBody = z
  .object({
    variant: Variant,
    options: GameOptions.optional(),
    side: SideChoice,
  })
  .strict();
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
