import { z } from 'zod';
import { ResolvedOptions, RoomId, Side, Variant, Version } from './common.js';

export const SeatState = z.object({ taken: z.boolean(), connected: z.boolean() });

export const ResultReason = z.enum(['captures', 'trapped', 'blocked']);
export const GameResult = z.object({ winner: Side.nullable(), reason: z.string() });
export type GameResult = z.infer<typeof GameResult>;

/** The public state of a room: everything anyone may see, never a seat token. */
export const Snapshot = z.object({
  roomId: RoomId,
  version: Version,
  variant: Variant,
  options: ResolvedOptions,
  /** RULES.md position string (R41). */
  position: z.string(),
  /** Move texts so far (R40, canonical). */
  moves: z.array(z.string()),
  toMove: Side,
  goatsInHand: z.number().int(),
  captured: z.number().int(),
  result: GameResult.nullable(),
  seats: z.object({ tiger: SeatState, goat: SeatState }),
  spectators: z.number().int().min(0),
});
export type Snapshot = z.infer<typeof Snapshot>;
