import { z } from 'zod';
import { Version } from './common.js';

/** Error codes shared by the server's replies and the client's messages. */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'NOT_FOUND',
  'UNAUTHORIZED',
  'SEAT_TAKEN',
  'NOT_YOUR_TURN',
  'ILLEGAL_MOVE',
  'STALE',
  'GAME_OVER',
  'RATE_LIMITED',
  'NOT_ALLOWED',
  'INTERNAL',
  /** The change could not be stored (the store is failing): nothing changed; try again. */
  'UNAVAILABLE',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorInfo = z.object({ code: ErrorCode, message: z.string() });
export type ErrorInfo = z.infer<typeof ErrorInfo>;

/** HTTP error body: `{ error: { code, message } }` with a 4xx status. */
export const ErrorBody = z.object({ error: ErrorInfo });
export type ErrorBody = z.infer<typeof ErrorBody>;

/**
 * Every socket ack that failed. `version`: the room's version as the server refused the command,
 * whenever the server knows the room (absent for `NOT_FOUND`, a payload naming no valid room, a
 * store that could not be reached), so a client can tell whether it is behind.
 */
export const AckError = z.object({ ok: z.literal(false), error: ErrorInfo, version: Version.optional() });
export type AckError = z.infer<typeof AckError>;
