import { OPTION_NAMES, SIDES, VARIANTS } from '@bagh/rules';
import { z } from 'zod';

export const RoomId = z.string().regex(/^[A-Za-z0-9_-]{6,32}$/, 'a room id is 6–32 letters, digits, - or _');
export type RoomId = z.infer<typeof RoomId>;

/** A seat token: 128+ random bits, base64url. Only its holder ever sees it. */
export const SeatToken = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, 'malformed seat token');

export const Side = z.enum(SIDES);
export const Variant = z.enum(VARIANTS);
export const SideChoice = z.enum([...SIDES, 'random']);

/** The computer's levels, weakest first (`@bagh/engine`'s LEVELS). */
export const BOT_LEVELS = ['beginner', 'casual', 'strong', 'max'] as const;
export const BotLevel = z.enum(BOT_LEVELS);
export type BotLevel = z.infer<typeof BotLevel>;

export const GameOptions = z
  .object(
    Object.fromEntries(OPTION_NAMES.map((name) => [name, z.boolean().optional()])) as {
      [K in (typeof OPTION_NAMES)[number]]: z.ZodOptional<z.ZodBoolean>;
    },
  )
  .strict();
export type GameOptions = z.infer<typeof GameOptions>;

export const ResolvedOptions = z.object(
  Object.fromEntries(OPTION_NAMES.map((name) => [name, z.boolean()])) as {
    [K in (typeof OPTION_NAMES)[number]]: z.ZodBoolean;
  },
);

/** A move in RULES.md move text (R40); the rules engine judges it. */
export const MoveText = z.string().min(2).max(64);
/** Number of moves already played that the sender saw. */
export const Ply = z.number().int().min(0).max(100_000);
export const Version = z.number().int().min(0);
