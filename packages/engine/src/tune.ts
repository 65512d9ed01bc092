/**
 * `pnpm tune:engine`: tunes the evaluation weights by self-play (Bagh Chal). Coordinate descent:
 * each weight in turn is scaled down and up, and a candidate replaces the current weights when it
 * scores over 55 % against them in a match (both sides, random two-ply openings, node budgets).
 * Prints every match and the final weights, to be copied into DEFAULT_WEIGHTS.
 */
import { createGame, type Game, legalMoves, play } from '@bagh/rules';
import { seededRandom } from './bot.js';
import { DEFAULT_WEIGHTS, type Weights } from './evaluate.js';
import { Searcher } from './search.js';

const GAMES = Number(process.env.TUNE_GAMES ?? 16);
const NODES = Number(process.env.TUNE_NODES ?? 8_000);
const ROUNDS = Number(process.env.TUNE_ROUNDS ?? 1);
const MAX_PLIES = 200;
const FACTORS = [0.6, 1.6];

/** One game; returns the tigers' result (1 win, 0.5 draw by the ply cap, 0 loss). */
function playGame(tiger: Weights, goat: Weights, seed: number): number {
  const random = seededRandom(seed);
  const created = createGame('bagh-chal');
  if (!created.ok) throw new Error(created.error.message);
  let game: Game = created.value;
  const searchers = { tiger: new Searcher(), goat: new Searcher() };
  for (let ply = 0; ply < MAX_PLIES && !game.outcome; ply++) {
    const side = game.position.toMove;
    const moves = legalMoves(game);
    const move =
      ply < 2
        ? moves[Math.floor(random() * moves.length)]!
        : searchers[side].search(game, { maxNodes: NODES, weights: side === 'tiger' ? tiger : goat }).move!;
    const played = play(game, move);
    if (!played.ok) throw new Error(played.error.message);
    game = played.value;
  }
  if (!game.outcome) return 0.5;
  return game.outcome.winner === 'tiger' ? 1 : 0;
}

/** The candidate's score over `GAMES` games, half as tigers, half as goats. */
function match(candidate: Weights, current: Weights, seed: number): number {
  let score = 0;
  for (let g = 0; g < GAMES; g++) {
    score +=
      g % 2 === 0 ? playGame(candidate, current, seed + g) : 1 - playGame(current, candidate, seed + g);
  }
  return score;
}

let current: Weights = DEFAULT_WEIGHTS;
let seed = 1000;
console.log(
  `tuning by self-play: ${GAMES} games per match, ${NODES} nodes per move, start ${JSON.stringify(current)}`,
);
for (let round = 0; round < ROUNDS; round++) {
  for (const key of Object.keys(current) as (keyof Weights)[]) {
    for (const factor of FACTORS) {
      const candidate = { ...current, [key]: Math.round(current[key] * factor) };
      const score = match(candidate, current, (seed += GAMES));
      const accepted = score > GAMES * 0.55;
      console.log(
        `${key} ×${factor}: ${JSON.stringify(candidate)} scored ${score}/${GAMES}${accepted ? '  → accepted' : ''}`,
      );
      if (accepted) {
        current = candidate;
        break;
      }
    }
  }
}
console.log(`final weights: ${JSON.stringify(current)}`);
