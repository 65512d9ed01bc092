/**
 * Bounds the schemas enforce, as plain numbers: the web client checks what it stores against the
 * same limits without loading zod (`@bagh/protocol/limits` imports nothing).
 */

/** A time control's bounds, in milliseconds: 0.1 s to 3 h to start with, at most 10 min a move added. */
export const TIME_CONTROL_LIMITS = {
  initialMs: { min: 100, max: 3 * 3_600_000 },
  incrementMs: { min: 0, max: 600_000 },
} as const;

/**
 * The most moves a room keeps (plies): past it a move is refused, the clocks stop, and the game
 * ends by the players (a draw offered, a resignation). Bagh Guti and Bagh Bandi without `noRepeat`
 * never end by themselves; a game this long is a loop, and every event carries every move.
 */
export const MAX_PLIES = 2_000;

/** The longest game record taken: room for any record a room exports (MAX_PLIES moves, long multi-jumps, imported headers). */
export const MAX_RECORD_CHARS = 100_000;
