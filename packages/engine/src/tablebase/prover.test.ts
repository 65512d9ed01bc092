/**
 * The proof-number search of the R13 race against the alpha-beta race search, on reduced tables
 * solved in memory: race.test.ts's (the tigers win at the first capture: tier 0), where the
 * depth-first search proves a race within its budget the prover must prove the same; and one of
 * two tiers (the tigers win at the second capture), where a race of 29 plies is beyond the
 * depth-first search's reach on a small budget and the prover finds it at once.
 */
import { type Game, legalMoves, makeMove, play, playMoveTexts, sameMove } from '@bagh/rules';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseMove, seededRandom, useMoveOracle } from '../bot.js';
import { gameAt, tierZeroTable } from '../test-helpers.js';
import { raceOracle } from './oracle.js';
import type { BoardProbe } from './probe.js';
import { Tablebase } from './probe.js';
import { RaceProver } from './prover.js';
import { RACE_PROVEN, RaceSearch } from './race.js';
import { solveTier } from './solver.js';

const { table, probe } = tierZeroTable();
const gameAfter = (start: string, moves: string[]): Game => gameAt('bagh-chal', start, moves);

// race.test.ts's position: of the tigers' two drawing moves, e3-d2 wins the race and e1-d2 loses it.
const game = gameAfter('GGGTG/GGT1G/GGGGG/GGGGT/GGGGT g 0 0', ['e3-d4', 'e2-e3', 'd2-e2']);

/** Table draws along random games that keep to drawing moves (R13 applies: `play` judges it). */
function drawnGames(seed: number, plies: number): Game[] {
  const random = seededRandom(seed);
  const games: Game[] = [];
  let current = game;
  for (let ply = 0; ply < plies && !current.outcome; ply++) {
    games.push(current);
    const answer = table.analyse(current);
    if (!answer.ok) break;
    const drawing = legalMoves(current).filter(
      (move) => answer.value.moves.find((m) => m.move === makeMove(move))?.result === 'draw',
    );
    if (drawing.length === 0) break;
    const next = play(current, drawing[Math.floor(random() * drawing.length)]!);
    if (!next.ok) throw new Error(next.error.message);
    current = next.value;
  }
  return games;
}

describe('the proof-number search of the race (R13)', () => {
  it('proves the race.test position: e3-d2 wins, so the side to move wins', () => {
    const proof = new RaceProver(probe, 1).prove(game, 5000);
    expect(proof?.status).toBe('won');
    expect(proof!.moves.filter((m) => m.status === 'won').map((m) => makeMove(m.move))).toEqual(['e3-d2']);
    const after = playMoveTexts(game, ['e1-d2']);
    if (!after.ok) throw new Error(after.error.message);
    // After the losing move the goats, to move, win the race.
    expect(new RaceProver(probe, 1).prove(after.value, 5000)?.status).toBe('won');
  });

  it('agrees with every race the alpha-beta search proves along random drawn games', () => {
    const tally = { won: 0, lost: 0 };
    for (let seed = 1; seed <= 12; seed++) {
      for (const position of drawnGames(seed, 24)) {
        const race = new RaceSearch(probe, 1).search(position, { maxNodes: 20_000 });
        const proof = new RaceProver(probe, 1).prove(position, 20_000);
        expect(proof === null).toBe(race === null);
        if (race === null || proof === null) continue;
        const best = race.scores[0]!.score;
        if (best >= RACE_PROVEN) {
          expect(proof.status).toBe('won');
          tally.won++;
        } else if (race.scores.every((s) => s.score <= -RACE_PROVEN)) {
          expect(proof.status).toBe('lost');
          tally.lost++;
        } else {
          // Beyond the search's reach the prover may prove more, but never the contrary: a move it
          // proves won is not one the search proved lost (a score below the best is an upper bound).
          for (const { move, status } of proof.moves) {
            if (status !== 'won') continue;
            const searched = race.scores.find((s) => sameMove(s.move, move));
            expect(searched?.score).toBeGreaterThan(-RACE_PROVEN);
          }
        }
      }
    }
    // Not vacuous: both kinds of proof occur.
    expect(tally.won).toBeGreaterThan(5);
    expect(tally.lost).toBeGreaterThan(5);
  });
});

describe('a long forced race (two tiers)', () => {
  afterEach(() => useMoveOracle(null));
  const tier1 = solveTier(1, null);
  const two = Tablebase.fromArrays([solveTier(0, tier1), tier1], 2);
  const probe2: BoardProbe = (tigers, goats, captured, goatToMove) =>
    two.valueAt(tigers, goats, captured, goatToMove);
  // Found by random drawn games of tier 1: tigers to move, three drawing moves.
  const forced = gameAfter('T1GGG/1GGGT/GTGTG/GGGGG/GGGGG g 0 1', ['b4-b5']);
  const texts = (
    moves: readonly { move: Parameters<typeof makeMove>[0]; status?: string }[],
    status: string,
  ) => moves.filter((m) => m.status === status).map((m) => makeMove(m.move));

  it('the race search on a small budget plays a move that loses; the prover sees which move wins', () => {
    const small = new RaceSearch(probe2, 2).search(forced, { maxNodes: 3000, captureWeight: 4 });
    expect(makeMove(small!.scores[0]!.move)).toBe('b3-b4');
    // The loss is real: on a budget 20 times larger the race search proves it too.
    const large = new RaceSearch(probe2, 2).search(forced, { maxNodes: 60_000, captureWeight: 4 });
    const b3b4 = large!.scores.find((s) => makeMove(s.move) === 'b3-b4');
    expect(b3b4!.score).toBeLessThanOrEqual(-RACE_PROVEN);

    const proof = new RaceProver(probe2, 2).prove(forced, 3000);
    expect(proof!.status).toBe('won');
    expect(texts(proof!.moves, 'won')).toEqual(['a5-b4']);
    expect(texts(proof!.moves, 'lost')).toEqual(['b3-b4']);
  });

  it('starts each step where the last changed nothing above: the same proof, a fraction of the plies walked', () => {
    const near = new RaceProver(probe2, 2);
    const far = new RaceProver(probe2, 2, true);
    for (const position of [forced, game]) {
      const budget = 3000;
      const a = position === game ? new RaceProver(probe, 1) : near;
      const b = position === game ? new RaceProver(probe, 1, true) : far;
      const [x, y] = [a.prove(position, budget)!, b.prove(position, budget)!];
      expect(x.status).toBe(y.status);
      expect(x.expansions).toBe(y.expansions);
      expect(x.moves.map((m) => m.status)).toEqual(y.moves.map((m) => m.status));
    }
    // An open race (no proof within the budget), where the steps go deepest.
    const open = gameAfter('T1GGG/1GGGT/GTGTG/GGGGG/GGGGG g 0 1', ['b4-b5', 'b3-b4']);
    const [walkedNear, walkedFar] = [near.walked, far.walked];
    const [x, y] = [near.prove(open, 3000)!, far.prove(open, 3000)!];
    expect(x.status).toBe(y.status);
    expect(x.expansions).toBe(y.expansions);
    expect((near.walked - walkedNear) * 2).toBeLessThan(far.walked - walkedFar);
  });

  it('a cancelled bot request stops the prover and the race search at their next check', () => {
    const limits = { maxNodes: 60_000, captureWeight: 4 };
    expect(new RaceSearch(probe2, 2).search(forced, limits)!.nodes).toBeGreaterThan(1024);
    expect(new RaceSearch(probe2, 2).search(forced, { ...limits, stopped: () => true })!.nodes).toBe(1024);
    expect(new RaceProver(probe2, 2).prove(forced, 3000)!.expansions).toBeGreaterThan(0);
    expect(new RaceProver(probe2, 2).prove(forced, 3000, undefined, () => true)!.expansions).toBe(0);
    // chooseMove hands the request's cancellation to the oracle (which names the move: no search).
    let asked = 0;
    useMoveOracle(raceOracle(two, 'race', { maxNodes: 3000, captureWeight: 4, proofExpansions: 3000 }));
    const stopped = () => {
      asked++;
      return false;
    };
    chooseMove(forced, 'max', seededRandom(1), undefined, { maxNodes: 2000, stopped });
    expect(asked).toBeGreaterThan(0);
  });

  it('max with the bot workers’ oracle plays the proven win (the race search alone, the loss)', () => {
    const limits = { maxNodes: 3000, captureWeight: 4 };
    useMoveOracle(raceOracle(two, 'race', { ...limits, proofExpansions: 0 }));
    expect(makeMove(chooseMove(forced, 'max', seededRandom(1), undefined, { maxNodes: 2000 })!.move)).toBe(
      'b3-b4',
    );
    useMoveOracle(raceOracle(two, 'race', { ...limits, proofExpansions: 3000 }));
    expect(makeMove(chooseMove(forced, 'max', seededRandom(1), undefined, { maxNodes: 2000 })!.move)).toBe(
      'a5-b4',
    );
  });
});
