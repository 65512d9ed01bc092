/** Chooses the computer's move for a level; the randomness is injected, so games replay exactly. */
import type { Game, Move } from '@bagh/rules';
import { LEVEL_SETTINGS, type Level } from './levels.js';
import { Searcher, type SearchLimits, weightsFor } from './search.js';

export interface BotChoice {
  readonly move: Move;
  readonly score: number;
  readonly depth: number;
  readonly nodes: number;
}

/**
 * An oracle that knows the best move of some positions — the sliding-phase tablebase, registered
 * by a Node host with `useMoveOracle(game => table.bestMove(game))` — or null where it does not.
 * It must choose among `legalMoves(game)` (R13 applies to the game's history).
 */
export type MoveOracle = (game: Game) => Move | null;
let moveOracle: MoveOracle | null = null;

/** Makes `max` play the oracle's move wherever it has one (null: search only). */
export function useMoveOracle(oracle: MoveOracle | null): void {
  moveOracle = oracle;
}

export function chooseMove(
  game: Game,
  level: Level,
  random: () => number,
  searcher: Searcher = new Searcher(),
  overrides: SearchLimits = {},
): BotChoice | null {
  const known = level === 'max' && moveOracle !== null ? moveOracle(game) : null;
  if (known) return { move: known, score: 0, depth: 0, nodes: 0 };
  const settings = LEVEL_SETTINGS[level];
  const limits = { ...settings.limits, ...overrides };
  const result = searcher.search(game, limits);
  if (!result.move) return null;
  if (settings.temperature === 0 || result.rootScores.length === 1) {
    return { move: result.move, score: result.score, depth: result.depth, nodes: result.nodes };
  }
  const best = result.rootScores[0]!.score;
  const temperature = settings.temperature * weightsFor(game, limits).capture;
  const weights = result.rootScores.map((s) => Math.exp((s.score - best) / temperature));
  let pick = random() * weights.reduce((a, b) => a + b, 0);
  for (const [i, scored] of result.rootScores.entries()) {
    pick -= weights[i]!;
    if (pick <= 0)
      return { move: scored.move, score: scored.score, depth: result.depth, nodes: result.nodes };
  }
  return { move: result.move, score: result.score, depth: result.depth, nodes: result.nodes };
}

/** A small seeded generator (mulberry32) for reproducible bot games. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
