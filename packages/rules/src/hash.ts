/**
 * Zobrist keys for the incremental position hash. The tables are fixed (a deterministic mix of
 * the index), so the same position hashes the same in every process.
 */
import { POINT_COUNT } from './geometry.js';

export const MAX_STACK = 99;

export function mix32(value: number): number {
  let x = value | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) | 0;
}

export const TIGER_KEYS = Int32Array.from({ length: POINT_COUNT }, (_, p) =>
  mix32(0x7167e4 + p * 0x9e3779b9),
);
/** GOAT_KEYS[p * (MAX_STACK + 1) + h]: h goats on p; zero for an empty point. */
export const GOAT_KEYS = Int32Array.from({ length: POINT_COUNT * (MAX_STACK + 1) }, (_, i) =>
  i % (MAX_STACK + 1) === 0 ? 0 : mix32(0x60a7 + i * 0x85ebca77),
);
export const GOAT_TO_MOVE_KEY = mix32(0x51de);
export const handKey = (goatsInHand: number): number =>
  goatsInHand === 0 ? 0 : mix32(0x4a7d + goatsInHand * 0x27d4eb2f);
