#!/usr/bin/env node
/**
 * `pnpm tablebase:check [--dir DIR] [--samples N]`: checks a built
 * table against the rules, independently of the solver: N random positions per tier (default
 * 20,000) and each of their moves by the rules package's own generator (SearchBoard). Every
 * sampled value must be what its children's values make it (the issue's invariants): a win in N
 * has a move to a loss in N − 1 and none quicker; a loss in N has every move to a win, the slowest
 * in N − 1; a draw has a move to a draw and none to a loss. Checks the files' sizes too
 * (705,743,500 positions). Exit 1 on the first disagreement.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { positionAt, TIER_COUNT, TierSpace, tierFile } from '@bagh/engine/tablebase';
import { resolveOptions, SearchBoard } from '@bagh/rules';
import { z } from 'zod';
import { tablebaseDir } from './tablebase-solve.js';

const Args = z.object({ dir: z.string().min(1), samples: z.coerce.number().int().min(1).max(10_000_000) });

function main(): number {
  const argv = process.argv.slice(2);
  const raw: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) raw[argv[i]!.replace(/^--/, '')] = argv[i + 1] ?? '';
  const args = Args.parse({ dir: raw.dir ?? tablebaseDir(), samples: raw.samples ?? 20_000 });
  const spaces = Array.from({ length: TIER_COUNT }, (_, tier) => new TierSpace(tier));
  // The tiers built so far (a build in progress writes 4, 3, … in turn): each is checked with the ones above.
  const fds = spaces.map((space) => {
    const path = join(args.dir, tierFile(space.tier));
    if (!existsSync(path)) return -1;
    if (statSync(path).size !== space.positions * 2) throw new Error(`${path}: wrong size`);
    return openSync(path, 'r');
  });
  const present = spaces.filter((space) => fds[space.tier]! >= 0);
  const total = present.reduce((sum, space) => sum + space.positions, 0);
  process.stdout.write(
    `positions in tiers ${present.map((s) => s.tier).join(', ')}: ${total.toLocaleString('en-US')}\n`,
  );
  if (present.length === TIER_COUNT && total !== 705_743_500) return 1;
  const buffer = new Uint8Array(2);
  const valueAt = (tier: number, index: number): number => {
    readSync(fds[tier]!, buffer, 0, 2, index * 2);
    return buffer[0]! | (buffer[1]! << 8);
  };
  const options = resolveOptions('bagh-chal');
  let seed = 12345;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  for (const space of present) {
    let wins = 0;
    let losses = 0;
    let draws = 0;
    for (let n = 0; n < args.samples; n++) {
      const index = Math.floor(random() * space.positions);
      const board = new SearchBoard('bagh-chal', options, positionAt(space.tier, index, space));
      let bestWin = 0;
      let slowestLoss = 0;
      let undecided = false;
      for (const move of board.generateMoves()) {
        board.make(move);
        const captured = board.goatsCaptured;
        const child =
          captured === TIER_COUNT
            ? 1 // the fifth capture: the goats, to move, have lost (R14)
            : valueAt(
                captured,
                spaces[captured]!.boardIndex(board.tigers, board.emptyMask) * 2 + (board.goatToMove ? 1 : 0),
              );
        board.unmake(move);
        if (child === 0) undecided = true;
        else if ((child - 1) % 2 === 0) bestWin = bestWin === 0 ? child : Math.min(bestWin, child);
        else slowestLoss = Math.max(slowestLoss, child);
      }
      const expected = bestWin !== 0 ? bestWin + 1 : undecided ? 0 : slowestLoss + 1;
      const value = valueAt(space.tier, index);
      if (value !== expected) {
        process.stdout.write(`tier ${space.tier} index ${index}: table ${value}, children say ${expected}\n`);
        return 1;
      }
      if (value === 0) draws++;
      else if ((value - 1) % 2 === 1) wins++;
      else losses++;
    }
    process.stdout.write(
      `tier ${space.tier}: ${args.samples} samples agree with their moves (${wins} wins, ${losses} losses, ${draws} draws for the side to move)\n`,
    );
  }
  for (const fd of fds) if (fd >= 0) closeSync(fd);
  return 0;
}

process.exitCode = main();
