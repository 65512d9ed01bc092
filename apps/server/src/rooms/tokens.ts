/** Seat tokens: 192 random bits, handed to their holder once; only a SHA-256 hash is kept. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const newSeatToken = (): string => randomBytes(24).toString('base64url');

/** The seat token a claim's key makes for a seat (ClaimRequest.claimKey): 192 bits, as newSeatToken's. */
export const claimedSeatToken = (roomId: string, side: string, claimKey: string): string =>
  createHash('sha256').update(`${roomId} ${side} ${claimKey}`).digest().subarray(0, 24).toString('base64url');

export const hashSeatToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Constant-time comparison of two token hashes. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** Room ids: 72 random bits, 12 url-safe characters. */
export const newRoomId = (): string => randomBytes(9).toString('base64url');
