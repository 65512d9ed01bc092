/** Chooses the computer's move for a level; the randomness is injected, so games replay exactly. */
import type { Game, Move } from '@bagh/rules';
import { WIN_SCORE } from './evaluate.js';
import { LEVEL_SETTINGS, type Level } from './levels.js';
import { Searcher, type SearchLimits, type TableProbe, weightsFor } from './search.js';

export interface BotChoice {
  readonly move: Move;
  readonly score: number;
  readonly depth: number;
  readonly nodes: number;
}

/**
 * An oracle that knows the best move of some positions — the sliding-phase tablebase, registered
 * by a Node host with `useMoveOracle(raceOracle(table))` — or null where it does not.
 * It must choose among `legalMoves(game)` (R13 applies to the game's history). A list is the moves
 * it values alike: `max` searches among them (the table's draws ignore R13, and the search sees
 * the race for unrepeated moves that a draw by the table can still lose), and among all legal
 * moves when it finds every one of them lost.
 */
/** `stopped`: the request's cancellation, checked as the search checks it. */
export type MoveOracle = (game: Game, stopped?: () => boolean) => Move | readonly Move[] | null;
let moveOracle: MoveOracle | null = null;

/** Makes `max` play the oracle's move wherever it has one (null: search only). */
export function useMoveOracle(oracle: MoveOracle | null): void {
  moveOracle = oracle;
}

let tableProbe: TableProbe | null = null;

/**
 * Makes `max`'s search value Bagh Chal positions with every goat placed by the sliding-phase
 * tablebase where that is sound under R13 (search.ts): registered by a Node host with
 * `useTableProbe(searchProbe(table))`; the browser has none (null: the search alone).
 */
export function useTableProbe(probe: TableProbe | null): void {
  tableProbe = probe;
}

export function chooseMove(
  game: Game,
  level: Level,
  random: () => number,
  searcher: Searcher = new Searcher(),
  overrides: SearchLimits = {},
): BotChoice | null {
  const known = level === 'max' && moveOracle !== null ? moveOracle(game, overrides.stopped) : null;
  if (known !== null && !Array.isArray(known)) return { move: known as Move, score: 0, depth: 0, nodes: 0 };
  const among = known as readonly Move[] | null;
  if (among?.length === 1) return { move: among[0]!, score: 0, depth: 0, nodes: 0 };
  const settings = LEVEL_SETTINGS[level];
  const probe = level === 'max' && tableProbe !== null ? { tableProbe } : {};
  const root = among !== null && among.length > 1 ? { rootMoves: among } : {};
  const limits = { ...settings.limits, ...probe, ...root, ...overrides };
  let result = searcher.search(game, limits);
  // Every move that keeps the table's draw loses by R13 within the horizon: any legal move may do better.
  if (among !== null && result.score <= -(WIN_SCORE - 1000)) {
    // On the level's plain budget: after the oracle and a shaped first search, a second shaped
    // one (2× for the goats) could outlast the worker's budget.
    const free = searcher.search(game, { ...limits, rootMoves: undefined, goatBudget: false });
    if (free.score > result.score) result = free;
  }
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
