#!/usr/bin/env node
/**
 * `pnpm tablebase [--dir DIR] [--captures N] [--threads N]`: builds the sliding-phase table (FORMAT.md) into
 * DIR, else TABLEBASE_DIR, else DATA_DIR/tablebase (DATA_DIR: ./data). Tiers 4 → 0, each written
 * atomically with its counts (tier-c.json), so an interrupted build resumes at the first tier
 * missing. `--captures N` (1–5, default 5): the tigers win at the N-th capture — a reduced rule
 * set, N tiers, for tests. `--threads`: worker threads (default: the cores). A progress bar on stderr; the counts per tier on stdout at the end.
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import {
  FORMAT_VERSION,
  MANIFEST_FILE,
  type Manifest,
  readTier,
  readTierInfo,
  SUMS_FILE,
  solveTierParallel,
  sumsText,
  TIER_COUNT,
  type TierInfo,
  type TierProgress,
  TierSpace,
  tierInfo,
  tierInfoFile,
  tierStats,
  writeJson,
  writeText,
  writeTier,
} from '@bagh/engine/tablebase';
import { z } from 'zod';

const argsSchema = z.object({
  dir: z.string().min(1),
  captures: z.coerce.number().int().min(1).max(TIER_COUNT),
  threads: z.coerce.number().int().min(1).max(64),
});

function parseArgs(argv: readonly string[]): z.infer<typeof argsSchema> {
  const raw: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg !== '--dir' && arg !== '--captures' && arg !== '--threads')
      throw new Error(`unknown argument ${arg}`);
    const value = argv[++i];
    if (value === undefined) throw new Error(`${arg} needs a value`);
    raw[arg.slice(2)] = value;
  }
  const dir = raw.dir ?? process.env.TABLEBASE_DIR ?? join(process.env.DATA_DIR ?? './data', 'tablebase');
  const parsed = argsSchema.safeParse({
    dir,
    captures: raw.captures ?? TIER_COUNT,
    threads: raw.threads ?? availableParallelism(),
  });
  if (!parsed.success)
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

async function main(): Promise<void> {
  const { dir: given, captures, threads } = parseArgs(process.argv.slice(2));
  const dir = resolve(given);
  mkdirSync(dir, { recursive: true });
  const tiers = Array.from({ length: captures }, (_, tier) => new TierSpace(tier));
  // Work units: each position once at init and once when settled.
  const work = (tier: number): number => tiers[tier]!.positions * 2;
  const infos: TierInfo[] = [];
  let above: Uint16Array | null = null;
  let aboveTier = -1;
  let remaining = 0;
  const todo: number[] = [];
  for (let tier = captures - 1; tier >= 0; tier--) {
    const info = readTierInfo(dir, tier);
    if (info && info.winCaptures === captures) {
      infos[tier] = info;
      process.stderr.write(`tier ${tier}: already built (${tierInfoFile(tier)}), kept\n`);
    } else {
      todo.push(tier);
      remaining += work(tier);
    }
  }
  const started = Date.now();
  let doneBefore = 0;
  for (const tier of todo) {
    const space = tiers[tier]!;
    if (tier + 1 < captures && aboveTier !== tier + 1) {
      above = readTier(dir, tier + 1, tiers[tier + 1]!.positions, true);
      aboveTier = tier + 1;
    }
    const tierStarted = Date.now();
    let lastDraw = 0;
    const draw = (progress: TierProgress, force = false): void => {
      const now = Date.now();
      if (!force && now - lastDraw < 1000) return;
      lastDraw = now;
      const done = doneBefore + (progress.phase === 'init' ? progress.done : space.positions + progress.done);
      const elapsed = (now - started) / 1000;
      const rate = done / 2 / Math.max(elapsed, 0.001);
      const left = (remaining - done) / 2 / rate;
      const fraction = done / remaining;
      const bar = '#'.repeat(Math.round(fraction * 30)).padEnd(30, '.');
      process.stderr.write(
        `\r[${bar}] tier ${tier} ${progress.phase === 'init' ? 'init' : `level ${progress.level}`} ` +
          `${(fraction * 100).toFixed(1)}% ${fmt(rate)} positions/s, ${clock(left)} left   `,
      );
    };
    const values = await solveTierParallel(tier, tier + 1 < captures ? above : null, threads, draw);
    const sha256 = writeTier(dir, tier, values);
    const seconds = (Date.now() - tierStarted) / 1000;
    const info = tierInfo(tierStats(tier, values), sha256, captures, seconds);
    writeJson(dir, tierInfoFile(tier), info);
    infos[tier] = info;
    doneBefore += work(tier);
    process.stderr.write(
      `\rtier ${tier}: ${fmt(space.positions)} positions solved in ${seconds.toFixed(1)} s${' '.repeat(40)}\n`,
    );
    above = values;
    aboveTier = tier;
  }
  const manifest: Manifest = { format: FORMAT_VERSION, winCaptures: captures, tiers: infos };
  writeJson(dir, MANIFEST_FILE, manifest);
  // Written last: a table is whole when its SHA256SUMS is there.
  writeText(dir, SUMS_FILE, sumsText(infos));
  report(dir, infos, (Date.now() - started) / 1000);
}

function report(dir: string, infos: readonly TierInfo[], seconds: number): void {
  const lines = [
    `tablebase in ${dir} (tigers win at capture ${infos.length}), ${seconds.toFixed(1)} s this run`,
  ];
  lines.push('tier  positions      up to symmetry  to move  tiger wins     goat wins      draws');
  let total = 0;
  let totalSymmetric = 0;
  for (const info of infos) {
    const s = info.stats;
    total += s.positions;
    totalSymmetric += s.positionsUpToSymmetry;
    for (const [side, c] of [
      ['tigers', s.tigersToMove],
      ['goats', s.goatsToMove],
    ] as const) {
      lines.push(
        `${String(s.tier).padEnd(6)}${fmt(s.positions).padEnd(15)}${fmt(s.positionsUpToSymmetry).padEnd(16)}${side.padEnd(9)}` +
          `${fmt(c.tigerWins).padEnd(15)}${fmt(c.goatWins).padEnd(15)}${fmt(c.draws)}`,
      );
    }
  }
  lines.push(`all   ${fmt(total)} positions, ${fmt(totalSymmetric)} up to symmetry`);
  const longest = (side: 'longestTigerWin' | 'longestGoatWin') =>
    infos.reduce<{ plies: number; position: string } | null>((best, info) => {
      const win = info.stats[side];
      return win && (!best || win.plies > best.plies) ? win : best;
    }, null);
  for (const [name, side] of [
    ['tiger', 'longestTigerWin'],
    ['goat', 'longestGoatWin'],
  ] as const) {
    const win = longest(side);
    lines.push(
      `longest forced ${name} win: ${win ? `${name} wins in ${win.plies} from ${win.position}` : 'none'}`,
    );
  }
  for (const info of infos) {
    const { tier, longestTigerWin: t, longestGoatWin: g } = info.stats;
    lines.push(`tier ${tier} longest tiger win: ${t ? `${t.plies} plies from ${t.position}` : 'none'}`);
    lines.push(`tier ${tier} longest goat win: ${g ? `${g.plies} plies from ${g.position}` : 'none'}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`\ntablebase: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
