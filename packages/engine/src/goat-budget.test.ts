/**
 * Issue 21, max's goats: their budget by the phase of the game (GOAT_BUDGET_SHAPE), on their nodes
 * and their clock (both deterministic here: node budgets, and a clock that moves as it is read).
 */
import { createGame, type Game, playMoveTexts } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { LOCKED_STARTS } from '../tools/locked-starts.js';
import { LEVEL_SETTINGS, Searcher } from './index.js';
import { GOAT_BUDGET_SHAPE, goatBudgetFactor } from './search.js';
import { gameAt } from './test-helpers.js';

/**
 * A game of the bench (sound opening 24, 20k nodes a move) that max's goats lost to old max's
 * tigers, up to the goats' 15th placement.
 */
const LOST = `G@e3 a1-b2 G@a2 a5-b4 G@a3 e1-d2 G@e2 b2-b1 G@c5 e5-d5 G@b5 b1-c1 G@a1 c1-b1 G@e5 d5-d4
  G@d1 d2-c1 G@e1 b1-b2 G@d2 b4-c3 G@a4 b2-b1 G@a5 c3-b4 G@d3 d4-e4`
  .split(/\s+/)
  .filter((move) => move !== '');

function after(moves: readonly string[]): Game {
  const created = createGame('bagh-chal');
  if (!created.ok) throw new Error(created.error.message);
  const played = playMoveTexts(created.value, [...moves]);
  if (!played.ok) throw new Error(played.error.message);
  return played.value;
}

/** max's own limits on a node budget instead of its clock. */
const maxOn = (maxNodes: number, goatBudget: boolean) => ({
  ...LEVEL_SETTINGS.max.limits,
  timeMs: undefined,
  maxNodes,
  goatBudget,
});

describe("the goats' budget shape", () => {
  it('doubles where the placement ends and the sliding begins, and takes from the rest', () => {
    const { transition, elsewhere } = GOAT_BUDGET_SHAPE;
    expect(goatBudgetFactor(after(LOST.slice(0, 10)))).toBe(elsewhere); // 15 goats in hand
    expect(goatBudgetFactor(after(LOST.slice(0, 24)))).toBe(transition); // 8 in hand
    expect(goatBudgetFactor(after(LOST.slice(0, 23)))).toBe(1); // the tigers' move
    expect(goatBudgetFactor(gameAt('bagh-chal', LOCKED_STARTS[1]!))).toBe(1); // no placement
  });

  it('spends the nodes it is given times the factor', () => {
    const game = after(LOST);
    expect(new Searcher().search(game, maxOn(10_000, false)).nodes).toBe(10_000);
    expect(new Searcher().search(game, maxOn(10_000, true)).nodes).toBe(20_000);
  });

  it('and the time it is given times the factor, so that a move bound by the clock is shaped too', () => {
    const timed = (game: Game, goatBudget: boolean) => {
      let clock = 0;
      const now = () => (clock += 10); // each read of the clock is 10 ms later
      new Searcher().search(game, {
        ...LEVEL_SETTINGS.max.limits,
        maxNodes: undefined,
        timeMs: 500,
        goatBudget,
        now,
      });
      return clock - 10; // from the read that set the deadline
    };
    expect(timed(after(LOST), false)).toBe(500);
    expect(timed(after(LOST), true)).toBe(500 * GOAT_BUDGET_SHAPE.transition);
    expect(timed(after(LOST.slice(0, 10)), true)).toBe(500 * GOAT_BUDGET_SHAPE.elsewhere);
  });

  // Ply 29 of the lost game, 6 goats in hand: on 20k nodes max's goats place G@d5 (depth 9,
  // -312), as they did in the game; on 40k nodes, and on 300k, they see more lost and place G@b3
  // (-391; -496 on 300k nodes), as the goats of a won replay of this opening (ten times the nodes
  // on plies 26-60) did.
  it("plays the deeper search's placement at the end of the placement", () => {
    const game = after(LOST);
    const plain = new Searcher().search(game, maxOn(20_000, false));
    expect(plain.move).toEqual({ kind: 'place', to: 23 });
    const shaped = new Searcher().search(game, maxOn(20_000, true));
    expect(shaped.move).toEqual({ kind: 'place', to: 11 });
    expect(shaped.score).toBeLessThan(plain.score);
  });

  // Ply 24 of the lost game, 8 goats in hand, 12k nodes (6k shaped): depth 7 completes with G@d3
  // best; in depth 8, cut short, G@a5 scores above G@d3's depth-8 score, and the goats play it.
  it('plays a root move proved better in the depth its budget cut short', () => {
    const game = after(LOST.slice(0, 24));
    const shaped = new Searcher().search(game, maxOn(6_000, true));
    const lastFull = new Searcher().search(game, { ...maxOn(6_000, true), maxDepth: shaped.depth });
    expect(shaped.depth).toBe(7);
    expect(lastFull.move).toEqual({ kind: 'place', to: 13 }); // G@d3
    expect(shaped.move).toEqual({ kind: 'place', to: 20 }); // G@a5
    expect(shaped.rootScores[0]!.move).toEqual(shaped.move);
  });
});
