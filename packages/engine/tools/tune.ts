/**
 * `pnpm tune:engine`: tunes the evaluation weights by self-play (Bagh Chal), by coordinate descent:
 * each weight in turn is stepped down and up, and a candidate replaces the current weights when it
 * scores better by a margin. TUNE_SIDE=goat (default) tunes the weights the goats search with,
 * against tigers on DEFAULT_WEIGHTS; TUNE_SIDE=tiger the tigers' against goats on GOAT_WEIGHTS.
 * A game scores 1 for a win, ½ for a draw (200-ply cap), plus a tenth for each goat the goats kept
 * (or the tigers took), so fewer games separate candidates. Openings: `soundOpening`.
 * Prints every match and the final weights, to be copied into evaluate.ts.
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  DEFAULT_WEIGHTS,
  GOAT_WEIGHTS,
  Searcher,
  seededRandom,
  soundOpening,
  type Weights,
} from '@bagh/engine';
import { legalMoves, play } from '@bagh/rules';

const GAMES = Number(process.env.TUNE_GAMES ?? 24);
const NODES = Number(process.env.TUNE_NODES ?? 10_000);
const ROUNDS = Number(process.env.TUNE_ROUNDS ?? 1);
const SIDE = process.env.TUNE_SIDE === 'tiger' ? 'tiger' : 'goat';
const MAX_PLIES = 200;
const STEPS: { readonly [K in keyof Weights]: number } = {
  capture: 60,
  threat: 20,
  mobility: 3,
  trappedTiger: 30,
  exposedGoat: 10,
  centralTiger: 15,
  lockedRace: 100,
  crampedGoats: 40,
};
/** TUNE_KEYS (e.g. `exposedGoat,threat`) limits the weights tried. */
const KEYS = (Object.keys(STEPS) as (keyof Weights)[]).filter(
  (k) => process.env.TUNE_KEYS?.split(',').includes(k) ?? true,
);

interface Job {
  readonly tiger: Weights;
  readonly goat: Weights;
  readonly seed: number;
}

/** One game; the tuned side's score (see the header). */
function playGame(job: Job): number {
  const random = seededRandom(job.seed);
  let game = soundOpening(random);
  const searchers = { tiger: new Searcher(), goat: new Searcher() };
  for (let ply = 0; ply < MAX_PLIES && !game.outcome; ply++) {
    const side = game.position.toMove;
    const move = legalMoves(game).length
      ? searchers[side].search(game, { maxNodes: NODES, weights: job[side] }).move!
      : null;
    if (!move) break;
    const played = play(game, move);
    if (!played.ok) throw new Error(played.error.message);
    game = played.value;
  }
  const result = !game.outcome ? 0.5 : game.outcome.winner === SIDE ? 1 : 0;
  const kept = 5 - Math.min(game.position.goatsCaptured, 5);
  return result + 0.1 * (SIDE === 'goat' ? kept : 5 - kept);
}

async function match(candidate: Weights, opponent: Weights, seed: number): Promise<number> {
  const jobs: Job[] = Array.from({ length: GAMES }, (_, g) => ({
    tiger: SIDE === 'tiger' ? candidate : opponent,
    goat: SIDE === 'goat' ? candidate : opponent,
    seed: seed + g,
  }));
  const workers = Math.max(1, Math.min(availableParallelism(), 4));
  const scores = await Promise.all(
    Array.from({ length: workers }, (_, w) => {
      const share = jobs.filter((_, i) => i % workers === w);
      return new Promise<number>((resolve, reject) => {
        const worker = new Worker(new URL(import.meta.url), { workerData: share });
        worker.once('message', (sum: number) => resolve(sum));
        worker.once('error', reject);
      });
    }),
  );
  return scores.reduce((a, b) => a + b, 0);
}

async function tune(): Promise<void> {
  const opponent = SIDE === 'goat' ? DEFAULT_WEIGHTS : GOAT_WEIGHTS;
  let current: Weights = SIDE === 'goat' ? GOAT_WEIGHTS : DEFAULT_WEIGHTS;
  const seed = 1000;
  let best = await match(current, opponent, seed);
  console.log(
    `tuning the ${SIDE}s by self-play: ${GAMES} games per match, ${NODES} nodes per move; start ${JSON.stringify(current)} scores ${best.toFixed(1)}`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const key of KEYS) {
      for (const sign of [1, -1]) {
        const candidate = { ...current, [key]: Math.max(0, current[key] + sign * STEPS[key]) };
        if (candidate[key] === current[key]) continue;
        // The same seeds for every candidate: differences come from the weights, not the openings.
        const score = await match(candidate, opponent, seed);
        const accepted = score > best + GAMES * 0.03;
        console.log(`${key} ${candidate[key]}: scored ${score.toFixed(1)}${accepted ? '  → accepted' : ''}`);
        if (accepted) {
          current = candidate;
          best = score;
          break;
        }
      }
    }
  }
  console.log(
    `final ${SIDE} weights: ${JSON.stringify(current)} (score ${best.toFixed(1)} of ${GAMES * 1.5})`,
  );
}

if (isMainThread) await tune();
else parentPort!.postMessage((workerData as Job[]).reduce((sum, job) => sum + playGame(job), 0));
