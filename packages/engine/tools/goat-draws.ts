/**
 * `node packages/engine/dist-tools/goat-draws.js a.jsonl b.jsonl …` (TABLEBASE_DIR set): how often
 * max's goats keep a draw the tablebase says they can keep. From the games in the files (the
 * bench's BENCH_RESULTS), every sliding-phase position with the goats to move that the table
 * calls a draw and where some legal move (R13 under the game's history) loses; max searches each
 * on GOAT_DRAWS_NODES nodes (default 20k) with its level's limits, no clock, and the tool prints
 * how many of its moves keep the draw. GOAT_DRAWS_STEP=4 takes every 4th position;
 * GOAT_DRAWS_WEIGHTS='{"crampedGoats":200}' searches with those of GOAT_WEIGHTS changed;
 * GOAT_DRAWS_LIST=1 prints each miss (position, move played, the moves that keep the draw).
 */
import { readFileSync } from 'node:fs';
import { GOAT_WEIGHTS, LEVEL_SETTINGS, Searcher } from '@bagh/engine';
import { Tablebase } from '@bagh/engine/tablebase';
import { createGame, type Game, makeMove, makePosition, playMoveTexts } from '@bagh/rules';
import { z } from 'zod';

const args = z
  .object({
    dir: z.string().min(1),
    files: z.array(z.string().min(1)).min(1),
    nodes: z.coerce.number().int().min(1),
    step: z.coerce.number().int().min(1),
    weights: z.record(z.string(), z.number()),
  })
  .parse({
    dir: process.env.TABLEBASE_DIR,
    files: process.argv.slice(2),
    nodes: process.env.GOAT_DRAWS_NODES ?? 20_000,
    step: process.env.GOAT_DRAWS_STEP ?? 1,
    weights: JSON.parse(process.env.GOAT_DRAWS_WEIGHTS ?? '{}'),
  });
/** A game as the bench writes it; locked starts begin elsewhere and are left out. */
const gameLine = z.object({ kind: z.enum(['opening', 'locked']), moves: z.string() });

const created = createGame('bagh-chal');
if (!created.ok) throw new Error(created.error.message);
const start = created.value;
/** The game after these moves (RULES.md move text). */
function replay(moves: readonly string[], from: Game = start): Game {
  const played = playMoveTexts(from, [...moves]);
  if (!played.ok) throw new Error(played.error.message);
  return played.value;
}

const table = Tablebase.open(args.dir);
const seen = new Set<string>();
const critical: Array<{ moves: string[]; keep: string[] }> = [];
for (const file of args.files)
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = gameLine.parse(JSON.parse(line));
    if (record.kind !== 'opening') continue;
    const texts = record.moves.split(' ');
    let game = start;
    for (let ply = 0; ply < texts.length; game = replay([texts[ply++]!], game)) {
      const { position } = game;
      if (position.goatsInHand > 0 || position.toMove !== 'goat' || game.outcome) continue;
      const key = `${makePosition(position)} ${ply}`;
      const answer = table.analyse(game);
      if (seen.has(key) || !answer.ok || answer.value.result !== 'draw') continue;
      seen.add(key);
      const keep = answer.value.moves.filter((m) => m.result !== 'tiger').map((m) => m.move);
      if (keep.length > 0 && keep.length < answer.value.moves.length)
        critical.push({ moves: texts.slice(0, ply), keep });
    }
  }

let kept = 0;
let searched = 0;
for (let i = 0; i < critical.length; i += args.step) {
  const { moves, keep } = critical[i]!;
  const limits = {
    ...LEVEL_SETTINGS.max.limits,
    timeMs: undefined,
    maxNodes: args.nodes,
    // "max on N nodes" means N for every position (no goats' budget by the phase).
    goatBudget: false,
    weights: { ...GOAT_WEIGHTS, ...args.weights },
  };
  const result = new Searcher().search(replay(moves), limits);
  searched++;
  const move = makeMove(result.move!);
  if (keep.includes(move)) kept++;
  else if (process.env.GOAT_DRAWS_LIST === '1')
    console.log(
      `${makePosition(replay(moves).position)} ply ${moves.length}: ${move}, keeps ${keep.join(' ')}`,
    );
}
console.log(
  `${critical.length} positions where a goat move loses a table draw; max on ${args.nodes.toLocaleString('en-US')} nodes kept the draw in ${kept} of ${searched} searched (every ${args.step}), missed ${searched - kept}`,
);
