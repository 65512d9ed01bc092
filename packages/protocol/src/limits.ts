/**
 * Bounds the schemas enforce, as plain numbers: the web client checks what it stores against the
 * same limits without loading zod (`@bagh/protocol/limits` imports nothing).
 */

/** A time control's bounds, in milliseconds: 0.1 s to 3 h to start with, at most 10 min a move added. */
export const TIME_CONTROL_LIMITS = {
  initialMs: { min: 100, max: 3 * 3_600_000 },
  incrementMs: { min: 0, max: 600_000 },
} as const;
