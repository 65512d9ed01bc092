/**
 * The proof-number search of the R13 race against the alpha-beta race search, on the reduced
 * table of race.test.ts (the tigers win at the first capture: tier 0, solved in memory). Where the
 * depth-first search proves a race within its budget, the prover must prove the same.
 */
import { createGame, type Game, legalMoves, makeMove, parsePosition, play, playMoveTexts } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../bot.js';
import type { BoardProbe } from './probe.js';
import { Tablebase } from './probe.js';
import { RaceProver } from './prover.js';
import { RACE_PROVEN, RaceSearch } from './race.js';
import { solveTier } from './solver.js';

const table = Tablebase.fromArrays([solveTier(0, null)], 1);
const probe: BoardProbe = (tigers, goats, captured, goatToMove) =>
  table.valueAt(tigers, goats, captured, goatToMove);

function gameAfter(start: string, moves: readonly string[]): Game {
  const position = parsePosition(start);
  if (!position.ok) throw new Error(position.error.message);
  const game = createGame('bagh-chal', {}, position.value);
  if (!game.ok) throw new Error(game.error.message);
  const played = playMoveTexts(game.value, moves);
  if (!played.ok) throw new Error(played.error.message);
  return played.value;
}

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
          // Beyond the search's reach the prover may prove more, but never the contrary.
          if (proof.status === 'won') expect(race.scores.some((s) => s.score > -RACE_PROVEN)).toBe(true);
          if (proof.status === 'lost') expect(best).toBeLessThan(RACE_PROVEN);
        }
      }
    }
    // Not vacuous: both kinds of proof occur.
    expect(tally.won).toBeGreaterThan(5);
    expect(tally.lost).toBeGreaterThan(5);
  });
});
