/**
 * Plain-data requests to the engine, as they cross a thread boundary (a Node worker thread on the
 * server, a Web Worker in the browser): a game given as variant, options, start position string
 * and move texts, answered with move texts. No I/O here: the same code runs in both places.
 */
import { type Game, gameFromMoves, makeMove, type Options, type Variant } from '@bagh/rules';
import { chooseMove, seededRandom } from './bot.js';
import { DEFAULT_WEIGHTS, WIN_SCORE } from './evaluate.js';
import type { Level } from './levels.js';
import { endgameOutlook } from './outlook.js';
import { Searcher, type SearchLimits } from './search.js';

/** A game to look at: from `start` (a RULES.md position string; absent: the variant's) after `moves`. */
export interface PositionRequest {
  readonly variant: Variant;
  readonly options: Partial<Options>;
  readonly start?: string | undefined;
  readonly moves: readonly string[];
}

/** The computer's move at `level`; `seed` makes the level's chosen mistakes reproducible. */
export interface BotMoveRequest extends PositionRequest {
  readonly level: Level;
  readonly seed: number;
}

export interface BotMoveReply {
  /** Canonical move text, or null when the side to move has no move (the game is over). */
  readonly move: string | null;
  readonly depth: number;
  readonly nodes: number;
}

/** The engine's view of a position: the best move it finds within `timeMs`. */
export interface AnalysisRequest extends PositionRequest {
  readonly timeMs: number;
  readonly maxDepth?: number | undefined;
}

export interface AnalysisReply {
  readonly bestMove: string | null;
  /** The evaluation from the tigers' point of view (positive: tigers better). */
  readonly forTigers: number;
  /**
   * Plies to a forced win (positive: tigers win, negative: goats), else null. A trap known from
   * the endgame table is the fastest one that gives up no goat: a sacrifice may win sooner.
   */
  readonly mateIn: number | null;
  /**
   * Plies to a goat the tigers take by force (or to goats left with no move), known at the end of
   * Bagh Chal's placement, else null.
   */
  readonly captureIn: number | null;
  readonly depth: number;
  readonly nodes: number;
}

/** Rebuilds the game a request describes; throws with the rules' message when it does not replay. */
export function gameOf(request: PositionRequest): Game {
  const game = gameFromMoves(request);
  if (!game.ok) throw new Error(game.error.message);
  return game.value;
}

/** `overrides` tighten the level's limits (a quick fallback search). */
export function botMove(
  request: BotMoveRequest,
  searcher: Searcher = new Searcher(),
  overrides: SearchLimits = {},
): BotMoveReply {
  const game = gameOf(request);
  if (game.outcome) return { move: null, depth: 0, nodes: 0 };
  const choice = chooseMove(game, request.level, seededRandom(request.seed), searcher, overrides);
  return choice
    ? { move: makeMove(choice.move), depth: choice.depth, nodes: choice.nodes }
    : { move: null, depth: 0, nodes: 0 };
}

/**
 * The search's verdict, made exact at the end of Bagh Chal's placement by the endgame outlook
 * where the search proves nothing: a trap the goats force is a win in so many plies, a capture
 * the tigers force is said as such.
 */
export function analyse(request: AnalysisRequest, searcher: Searcher = new Searcher()): AnalysisReply {
  const game = gameOf(request);
  // One scale for every position of a game, whichever side is to move.
  const result = searcher.search(game, {
    weights: DEFAULT_WEIGHTS,
    timeMs: request.timeMs,
    ...(request.maxDepth !== undefined ? { maxDepth: request.maxDepth } : {}),
  });
  const tigerToMove = game.position.toMove === 'tiger';
  let forTigers = tigerToMove ? result.score : -result.score;
  let mateIn: number | null = null;
  if (game.outcome) {
    forTigers = game.outcome.winner === 'tiger' ? WIN_SCORE : -WIN_SCORE;
  } else if (Math.abs(result.score) >= WIN_SCORE - 1000) {
    const plies = WIN_SCORE - Math.abs(result.score);
    mateIn = forTigers > 0 ? plies : -plies;
  }
  let bestMove = result.move;
  let captureIn: number | null = null;
  // A win the search proved stands: a goat the tigers take may not save them from a trap.
  const outlook = mateIn === null ? endgameOutlook(game) : undefined;
  if (outlook && outlook.value < 0) {
    // The table counts the tigers' missing move as a ply; the game ends before it.
    mateIn = outlook.value + 1;
    forTigers = -(WIN_SCORE + mateIn);
    bestMove = outlook.move;
  } else if (outlook && outlook.value > 0) {
    captureIn = outlook.value;
    // Goats that cannot save the goat may still do better than delay its loss: the search's move.
    if (game.position.toMove === 'tiger') bestMove = outlook.move;
  }
  return {
    bestMove: bestMove ? makeMove(bestMove) : null,
    forTigers,
    mateIn,
    captureIn,
    depth: result.depth,
    nodes: result.nodes,
  };
}
