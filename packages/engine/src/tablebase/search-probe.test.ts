/**
 * The search probing the sliding-phase tablebase (issue 20) on an in-memory table of tier 0 (the
 * tigers "win" at the first capture, so only boards with 20 goats are in it): every board a draw
 * but the ones a test marks. Node budgets only.
 */
import {
  createGame,
  type Game,
  legalMoves,
  makeMove,
  parsePosition,
  playMoveText,
  popcount,
} from '@bagh/rules';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseMove, seededRandom, useTableProbe } from '../bot.js';
import { WIN_SCORE } from '../evaluate.js';
import { Searcher } from '../search.js';
import { searchProbe, Tablebase } from './probe.js';
import { TierSpace } from './space.js';

const TIER0 = new TierSpace(0);

function gameAt(text: string): Game {
  const parsed = parsePosition(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const game = createGame('bagh-chal', {}, parsed.value);
  if (!game.ok) throw new Error(game.error.message);
  return game.value;
}

function after(game: Game, ...moves: string[]): Game {
  let next = game;
  for (const move of moves) {
    const played = playMoveText(next, move);
    if (!played.ok) throw new Error(played.error.message);
    next = played.value;
  }
  return next;
}

/** A tier-0 table where every board is a draw but `marks`: game → stored value (1 + plies). */
function tableWith(marks: ReadonlyArray<readonly [Game, number]>): Tablebase {
  const tier = new Uint16Array(TIER0.positions);
  for (const [game, value] of marks) {
    const { tigers, goats, toMove } = game.position;
    let goatMask = 0;
    for (let p = 0; p < goats.length; p++) if ((goats[p] ?? 0) > 0) goatMask |= 1 << p;
    expect(popcount(goatMask)).toBe(20);
    const empty = ~(tigers | goatMask) & ((1 << 25) - 1);
    tier[TIER0.boardIndex(tigers, empty) * 2 + (toMove === 'goat' ? 1 : 0)] = value;
  }
  return Tablebase.fromArrays([tier], 1);
}

const BUDGET = { maxNodes: 20_000, timeMs: undefined, endgame: false } as const;

describe('the search probes the tablebase where the hand empties (issue 20)', () => {
  afterEach(() => useTableProbe(null));

  it('scores the last placement by the table: its exact mate distance, counted from the root', () => {
    const root = gameAt('GGGGG/GTGTG/GG1GG/GT1TG/GGGGG g 1 0');
    // After G@c2 the tigers (to move) lose in 6 plies by the table: value 1 + 6.
    const table = tableWith([[after(root, 'G@c2'), 7]]);
    const result = new Searcher().search(root, { ...BUDGET, tableProbe: searchProbe(table) });
    expect(result.move && makeMove(result.move)).toBe('G@c2');
    expect(result.score).toBe(WIN_SCORE - 7);
    expect(new Searcher().search(root, BUDGET).score).not.toBe(WIN_SCORE - 7);
  });

  it("max's search finds the table's mate where the hand empties two plies down (useTableProbe)", () => {
    const root = gameAt('GGGGG/GTGTG/GG1GG/GT1TG/GGGGG t 1 0');
    // After b4-c3 the goats' last goat goes to b4 or c2: either way the tigers win in 3 (1 + 3).
    const table = tableWith([
      [after(root, 'b4-c3', 'G@b4'), 4],
      [after(root, 'b4-c3', 'G@c2'), 4],
    ]);
    const without = chooseMove(root, 'max', seededRandom(1), new Searcher(), BUDGET)!;
    expect(without.score).not.toBe(WIN_SCORE - 5);
    useTableProbe(searchProbe(table));
    const chosen = chooseMove(root, 'max', seededRandom(1), new Searcher(), BUDGET)!;
    expect(makeMove(chosen.move)).toBe('b4-c3');
    expect(chosen.score).toBe(WIN_SCORE - 5);
    // Other levels never use the table.
    expect(chooseMove(root, 'strong', seededRandom(1), new Searcher(), BUDGET)!.score).not.toBe(
      WIN_SCORE - 5,
    );
  });

  it('does not take a table win at a node whose earlier positions R13 may forbid to recur', () => {
    // The same board, tigers to move, c3 empty: reached by the last placement it is fresh (no
    // earlier position can recur) and the table's win counts; reached by a goat step in the
    // sliding phase, the game's positions of this material may recur along the table's line
    // (which ignores history), so the table is not trusted there and the search evaluates.
    const placing = gameAt('GGGGG/GTGTG/GG1GG/GT1TG/GGGGG g 1 0');
    const sliding = gameAt('GGGGG/GTGTG/GGGGG/GT1TG/GGGGG g 0 0');
    const child = after(sliding, 'c3-c2');
    expect(child.position).toEqual(after(placing, 'G@c2').position);
    const probe = searchProbe(tableWith([[child, 7]]));
    const limits = { ...BUDGET, maxDepth: 1, tableProbe: probe };
    expect(new Searcher().search(placing, limits).score).toBe(WIN_SCORE - 7);
    const result = new Searcher().search(sliding, limits);
    expect(result.score).not.toBe(WIN_SCORE - 7);
    expect(Math.abs(result.score)).toBeLessThan(WIN_SCORE - 1000);
  });

  it('leaves a table draw to the search under R13 (a draw there is a race, not a 0)', () => {
    const root = gameAt('GGGGG/GTGTG/GG1GG/GT1TG/GGGGG g 1 0');
    const drawn = new Searcher().search(root, { ...BUDGET, tableProbe: searchProbe(tableWith([])) });
    const plain = new Searcher().search(root, BUDGET);
    expect(drawn.score).toBe(plain.score);
    expect(drawn.score).not.toBe(0);
  });

  it("winningMoves: the table's fastest wins, none where the table has only draws", () => {
    const sliding = gameAt('GGGGG/GTGTG/GGGGG/GT1TG/GGGGG g 0 0');
    const winning = tableWith([[after(sliding, 'c3-c2'), 7]]);
    expect(winning.winningMoves(sliding).map(makeMove)).toEqual(['c3-c2']);
    const drawn = tableWith([]);
    expect(drawn.winningMoves(sliding)).toEqual([]);
    expect(drawn.bestMoves(sliding).length).toBe(legalMoves(sliding).length);
  });
});
