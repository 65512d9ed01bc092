/**
 * The table on disk (FORMAT.md): `tier-c.bin` (little-endian Uint16 values), `tier-c.json` (that
 * tier's counts and checksum, written after its values), then `SHA256SUMS` and `manifest.json`
 * once every tier is there. Each file is written beside its place and renamed into it.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { TIER_COUNT } from './space.js';
import type { TierStats } from './stats.js';

export const FORMAT_VERSION = 1;
export const SUMS_FILE = 'SHA256SUMS';
export const MANIFEST_FILE = 'manifest.json';
export const tierFile = (tier: number): string => `tier-${tier}.bin`;
export const tierInfoFile = (tier: number): string => `tier-${tier}.json`;

function requireLittleEndian(): void {
  if (endianness() !== 'LE') throw new Error('the tablebase files are little-endian; this machine is not');
}

const sideCounts = z.object({
  tigerWins: z.number().int(),
  goatWins: z.number().int(),
  draws: z.number().int(),
});
const longestWin = z.object({ plies: z.number().int(), position: z.string() }).nullable();
export const tierInfoSchema = z.object({
  format: z.literal(FORMAT_VERSION),
  /** The capture that ends the game: 5 for Bagh Chal (R14); less for a reduced rule set. */
  winCaptures: z.number().int().min(1).max(TIER_COUNT),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  seconds: z.number(),
  stats: z.object({
    tier: z
      .number()
      .int()
      .min(0)
      .max(TIER_COUNT - 1),
    positions: z.number().int(),
    positionsUpToSymmetry: z.number().int(),
    tigersToMove: sideCounts,
    goatsToMove: sideCounts,
    longestTigerWin: longestWin,
    longestGoatWin: longestWin,
  }),
});
export type TierInfo = z.infer<typeof tierInfoSchema>;

export const manifestSchema = z.object({
  format: z.literal(FORMAT_VERSION),
  winCaptures: z.number().int().min(1).max(TIER_COUNT),
  tiers: z.array(tierInfoSchema),
});
export type Manifest = z.infer<typeof manifestSchema>;

function writeAtomic(path: string, write: (fd: number) => void): void {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    write(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

const CHUNK = 1 << 26;

/** Writes a tier's values atomically; returns their SHA-256. */
export function writeTier(dir: string, tier: number, values: Uint16Array): string {
  requireLittleEndian();
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const hash = createHash('sha256');
  writeAtomic(join(dir, tierFile(tier)), (fd) => {
    for (let at = 0; at < bytes.length; at += CHUNK) {
      const chunk = bytes.subarray(at, Math.min(bytes.length, at + CHUNK));
      hash.update(chunk);
      for (let done = 0; done < chunk.length; ) done += writeSync(fd, chunk, done);
    }
  });
  return hash.digest('hex');
}

export function writeJson(dir: string, name: string, value: unknown): void {
  writeText(dir, name, `${JSON.stringify(value, null, 2)}\n`);
}

export function writeText(dir: string, name: string, text: string): void {
  writeAtomic(join(dir, name), (fd) => writeSync(fd, text));
}

/** A tier's values from its file (the size checked against `positions`), in a SharedArrayBuffer when `shared`. */
export function readTier(dir: string, tier: number, positions: number, shared = false): Uint16Array {
  requireLittleEndian();
  const path = join(dir, tierFile(tier));
  if (statSync(path).size !== positions * 2) throw new Error(`${path}: not ${positions * 2} bytes`);
  const values = new Uint16Array(
    shared ? new SharedArrayBuffer(positions * 2) : new ArrayBuffer(positions * 2),
  );
  const bytes = new Uint8Array(values.buffer);
  const fd = openSync(path, 'r');
  try {
    for (let at = 0; at < bytes.length; ) {
      const read = readSync(fd, bytes, at, Math.min(CHUNK, bytes.length - at), at);
      if (read === 0) throw new Error(`${path}: short read`);
      at += read;
    }
  } finally {
    closeSync(fd);
  }
  return values;
}

export function readTierInfo(dir: string, tier: number): TierInfo | null {
  const path = join(dir, tierInfoFile(tier));
  if (!existsSync(path) || !existsSync(join(dir, tierFile(tier)))) return null;
  const parsed = tierInfoSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  return parsed.success ? parsed.data : null;
}

export function tierInfo(stats: TierStats, sha256: string, winCaptures: number, seconds: number): TierInfo {
  return { format: FORMAT_VERSION, winCaptures, sha256, seconds, stats };
}

/** `sha256sum` lines for the tiers. */
export const sumsText = (tiers: readonly TierInfo[]): string =>
  tiers.map((info) => `${info.sha256}  ${tierFile(info.stats.tier)}\n`).join('');
