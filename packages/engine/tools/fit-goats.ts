/**
 * `node packages/engine/dist-tools/fit-goats.js a.jsonl …` (TABLEBASE_DIR set): fits the
 * evaluation's weights to the tablebase. From the games in the bench's result files, every
 * sliding-phase position and every position one move on, labelled tiger win or not by the table;
 * each evaluation term (the evaluation with that weight 1, the others 0) is a feature of a
 * logistic regression. Prints the fitted weights scaled to GOAT_WEIGHTS' capture, beside the
 * goats' hand-set ones, and the log-loss of each (the hand-set ones with scale and bias fitted).
 * FIT_QUIET=1 keeps only positions where no tiger can take a goat (where a search stops).
 */
import { readFileSync } from 'node:fs';
import { evaluateForTigers, GOAT_WEIGHTS, type Weights } from '@bagh/engine';
import { scanCaptures } from '@bagh/engine/internal';
import { Tablebase } from '@bagh/engine/tablebase';
import { createGame, type Game, makePosition, playMoveTexts, SearchBoard } from '@bagh/rules';
import { z } from 'zod';

const args = z
  .object({ dir: z.string().min(1), files: z.array(z.string().min(1)).min(1) })
  .parse({ dir: process.env.TABLEBASE_DIR, files: process.argv.slice(2) });
const gameLine = z.object({ kind: z.enum(['opening', 'locked']), moves: z.string() });

/** The terms fitted; lockedRace is off for the goats and the table knows no R13. */
const TERMS = [
  'capture',
  'threat',
  'mobility',
  'trappedTiger',
  'exposedGoat',
  'centralTiger',
  'crampedGoats',
] as const satisfies ReadonlyArray<keyof Weights>;
const ZERO: Weights = {
  ...GOAT_WEIGHTS,
  ...Object.fromEntries(Object.keys(GOAT_WEIGHTS).map((k) => [k, 0])),
};
const UNIT = TERMS.map((term) => ({ ...ZERO, [term]: 1 }));

const created = createGame('bagh-chal');
if (!created.ok) throw new Error(created.error.message);
const table = Tablebase.open(args.dir);

interface Sample {
  readonly x: number[];
  readonly tigerWins: boolean;
}
const samples: Sample[] = [];
const seen = new Set<string>();
function add(board: SearchBoard): void {
  const key = makePosition(board.toPosition());
  if (seen.has(key) || board.goatsInHand > 0 || board.tigersHaveWon()) return;
  if (process.env.FIT_QUIET === '1' && scanCaptures(board).threatened !== 0) return;
  seen.add(key);
  const value = table.valueAt(board.tigers, board.goatMask, board.goatsCaptured, board.goatToMove);
  if (value === undefined) return;
  const moverWins = (value - 1) % 2 === 1;
  const x = UNIT.map((w) => evaluateForTigers(board, w));
  // The side to move, as a term of its own: the evaluation has none, the table differs by it.
  x.push(board.goatToMove ? 1 : 0);
  samples.push({ x, tigerWins: value !== 0 && moverWins !== board.goatToMove });
}

for (const file of args.files)
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = gameLine.parse(JSON.parse(line));
    if (record.kind !== 'opening') continue;
    let game: Game = created.value;
    for (const text of record.moves.split(' ')) {
      const played = playMoveTexts(game, [text]);
      if (!played.ok) throw new Error(played.error.message);
      game = played.value;
      if (game.position.goatsInHand > 0 || game.outcome) continue;
      const board = new SearchBoard(game.variant, game.options, game.position);
      add(board);
      for (const move of board.generateMoves()) {
        board.make(move);
        add(board);
        board.unmake(move);
      }
    }
  }

const features = TERMS.length + 1;
/** Logistic regression by Newton's method on standardised features; weights back in raw units. */
function fit(
  rows: readonly number[][],
  labels: readonly boolean[],
): { w: number[]; bias: number; loss: number } {
  const n = rows.length;
  const k = rows[0]!.length;
  const mean = Array.from({ length: k }, (_, j) => rows.reduce((s, r) => s + r[j]!, 0) / n);
  const sd = mean.map((m, j) => Math.sqrt(rows.reduce((s, r) => s + (r[j]! - m) ** 2, 0) / n) || 1);
  const z = rows.map((r) => [1, ...r.map((v, j) => (v - mean[j]!) / sd[j]!)]);
  let beta = new Array<number>(k + 1).fill(0);
  let loss = 0;
  for (let iteration = 0; iteration < 30; iteration++) {
    const gradient = new Array<number>(k + 1).fill(0);
    const hessian = Array.from({ length: k + 1 }, () => new Array<number>(k + 1).fill(1e-6));
    loss = 0;
    z.forEach((row, i) => {
      const p = 1 / (1 + Math.exp(-row.reduce((s, v, j) => s + v * beta[j]!, 0)));
      const y = labels[i] ? 1 : 0;
      loss -= y * Math.log(p + 1e-12) + (1 - y) * Math.log(1 - p + 1e-12);
      for (let a = 0; a <= k; a++) {
        gradient[a]! += (p - y) * row[a]!;
        for (let b = 0; b <= k; b++) hessian[a]![b]! += p * (1 - p) * row[a]! * row[b]!;
      }
    });
    beta = beta.map((v, j) => v - solve(hessian, gradient)[j]!);
  }
  const w = beta.slice(1).map((v, j) => v / sd[j]!);
  const bias = beta[0]! - w.reduce((s, v, j) => s + v * mean[j]!, 0);
  return { w, bias, loss: loss / n };
}

/** Gaussian elimination with partial pivoting. */
function solve(matrix: number[][], vector: number[]): number[] {
  const a = matrix.map((row, i) => [...row, vector[i]!]);
  const n = a.length;
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
    [a[c], a[pivot]] = [a[pivot]!, a[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let j = c; j <= n; j++) a[r]![j]! -= f * a[c]![j]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

const labels = samples.map((s) => s.tigerWins);
const wins = labels.filter(Boolean).length;
console.log(`${samples.length} sliding-phase positions, ${wins} tiger wins by the table`);
const fitted = fit(
  samples.map((s) => s.x),
  labels,
);
const hand = fit(
  samples.map((s) => [
    TERMS.reduce((sum, term, j) => sum + GOAT_WEIGHTS[term] * s.x[j]!, 0),
    s.x[features - 1]!,
  ]),
  labels,
);
const scale = GOAT_WEIGHTS.capture / fitted.w[0]!;
console.log(`log-loss: fitted ${fitted.loss.toFixed(4)}, GOAT_WEIGHTS ${hand.loss.toFixed(4)}`);
for (const [j, term] of TERMS.entries())
  console.log(
    `  ${term.padEnd(13)} fitted ${(fitted.w[j]! * scale).toFixed(1).padStart(8)}  hand ${GOAT_WEIGHTS[term]}`,
  );
console.log(`  goats to move ${(fitted.w[features - 1]! * scale).toFixed(1).padStart(8)} (no term)`);
console.log(
  JSON.stringify(Object.fromEntries(TERMS.map((term, j) => [term, Math.round(fitted.w[j]! * scale)]))),
);
