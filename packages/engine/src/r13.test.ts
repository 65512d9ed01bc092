/**
 * Issue 21: scores that stay true under the no-repeat rule (R13), from the two games `max` lost or
 * let go. Node budgets only (deterministic); each test replays the real history.
 */
import { createGame, type Game, makeMove, play, playMoveTexts } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { LOST_FORTRESS, MISSED_WIN } from '../tools/issue-games.js';
import { chooseMove, LEVEL_SETTINGS, Searcher, WIN_SCORE } from './index.js';
import { goatsForceTrap } from './test-helpers.js';

const MATE_BOUND = WIN_SCORE - 1000;
/** max's own limits on a node budget instead of its clock. */
// A flat budget (no goats' shape): the node counts below are what each search gets.
const maxOn = (maxNodes: number) => ({ timeMs: undefined, maxNodes, goatBudget: false });
const never = () => 0;
/**
 * The searches are bounded by nodes, not time; vitest's own timeout is only a backstop, wide
 * enough for a shared machine under load (a 600k-node search took 37 s there).
 */
const NO_CLOCK = 600_000;

function after(moves: readonly string[], plies: number): Game {
  const created = createGame('bagh-chal');
  if (!created.ok) throw new Error(created.error.message);
  const played = playMoveTexts(created.value, moves.slice(0, plies));
  if (!played.ok) throw new Error(played.error.message);
  return played.value;
}

function played(game: Game, move: Parameters<typeof play>[1]): Game {
  const next = play(game, move);
  if (!next.ok) throw new Error(next.error.message);
  return next.value;
}

describe('scores under the no-repeat rule (issue 21)', () => {
  it(
    'before ply 141 of the missed win, a searcher kept since ply 135 plays a move that keeps the trap',
    () => {
      // The old table answered at depth 2 with a mate stored by an earlier move's search (b2-a1,
      // b1-a1, e1-e2: none traps); the goats' only trapping moves are d2-e2 and e3-d4.
      const searcher = new Searcher();
      let choice = null;
      for (let ply = 134; ply <= 140; ply += 2)
        choice = chooseMove(after(MISSED_WIN, ply), 'max', never, searcher, maxOn(600_000));
      const game = after(MISSED_WIN, 140);
      expect(goatsForceTrap(game, 11)).toBe(true);
      expect(goatsForceTrap(played(game, choice!.move), 10), makeMove(choice!.move)).toBe(true);
    },
    NO_CLOCK,
  );

  it(
    'replaying the missed win with one searcher for the goats, every mate it plays on is real',
    () => {
      // As the server's worker does: one searcher for all of the computer's moves of the game.
      const searcher = new Searcher();
      const claims: string[] = [];
      for (let ply = 110; ply <= 140; ply += 2) {
        const game = after(MISSED_WIN, ply);
        const choice = chooseMove(game, 'max', never, searcher, maxOn(300_000))!;
        if (choice.score < MATE_BOUND) continue;
        // A win in k plies: after the move, a fresh full-width search of k plies (one more than
        // the k − 1 left, to see a trap made by R13) finds the tigers lost.
        const plies = WIN_SCORE - choice.score;
        const check = new Searcher().search(played(game, choice.move), { maxDepth: plies, endgame: true });
        claims.push(`${ply}: ${makeMove(choice.move)} ${check.score <= -MATE_BOUND ? 'real' : 'phantom'}`);
      }
      expect(claims.filter((c) => c.endsWith('phantom'))).toEqual([]);
    },
    NO_CLOCK,
  );

  it(
    'in the lost fortress, max as tigers avoids the move that runs out of unrepeated moves',
    () => {
      // After 141 plies e4-d4 (the game's) and e5-d5 let the goats trap the tigers within 10
      // plies by R13; d3-d4 does not. The old max scored them all +691 at depth 15.
      const game = after(LOST_FORTRESS, 141);
      const choice = chooseMove(
        game,
        'max',
        never,
        new Searcher(),
        maxOn(LEVEL_SETTINGS.max.limits.maxNodes!),
      )!;
      const safe = ['d3-d4', 'e4-d4', 'e5-d5'].filter(
        (text) => !goatsForceTrap(after([...LOST_FORTRESS.slice(0, 141), text], 142), 9),
      );
      expect(safe).toEqual(['d3-d4']);
      expect(makeMove(choice.move)).toBe('d3-d4');
    },
    NO_CLOCK,
  );

  it(
    'a searcher that searched another game answers as a fresh one: no game lends its scores',
    () => {
      // The fortress's position with its history, then the same board as a new game without it.
      const fortress = after(LOST_FORTRESS, 141);
      const created = createGame('bagh-chal', {}, fortress.position);
      if (!created.ok) throw new Error(created.error.message);
      const limits = { maxDepth: 9, exactRootScores: true };
      const shared = new Searcher();
      shared.search(fortress, limits);
      const fresh = new Searcher().search(created.value, limits);
      expect(shared.search(created.value, limits).rootScores).toEqual(fresh.rootScores);
      shared.newGame();
      expect(shared.search(fortress, limits).rootScores).toEqual(
        new Searcher().search(fortress, limits).rootScores,
      );
    },
    NO_CLOCK,
  );
});
