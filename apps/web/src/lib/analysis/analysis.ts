/**
 * Post-game analysis: what to ask the engine about a replayed position, how to say its answer,
 * and a cache in front of the engine's Web Worker. The engine's evaluation is in its units (a
 * goat captured ≈ 120): said here in goats ahead, forced captures and wins, never as a number.
 */
import { type AnalysisReply, type AnalysisRequest, DEFAULT_WEIGHTS, WIN_SCORE } from '@bagh/engine';
import type { Options, Side, Variant } from '@bagh/rules';
import { m } from '../../paraglide/messages.js';
import { EngineClient, type WorkerLike } from '../engine/engine-client.js';
import { resultText } from '../game/view.js';
import { digits } from '../i18n/i18n.svelte.js';

/** Milliseconds of search per position. */
export const ANALYSIS_MS = 500;
/** The engine's value of one captured goat (its `capture` weight): a goat's worth. */
const GOAT = DEFAULT_WEIGHTS.capture;
/** Under half a goat's worth either way, neither side is said to be ahead. */
const EVEN = 0.5;

/** A game from its variant's start: a room's snapshot, or an offline game's moves. */
export interface GameLine {
  readonly variant: Variant;
  readonly options: Partial<Options>;
  /** The position the moves start from (R41); absent: the variant's. */
  readonly start?: string | undefined;
  /** Move texts (R40). */
  readonly moves: readonly string[];
  /** How the game ended, if it has. */
  readonly result?: GameResult | null | undefined;
}

/** The engine's question for the position after `ply` moves of the game. */
export function analysisRequest(game: GameLine, ply: number, timeMs = ANALYSIS_MS): AnalysisRequest {
  return {
    variant: game.variant,
    options: game.options,
    start: game.start,
    moves: game.moves.slice(0, Math.max(0, Math.min(ply, game.moves.length))),
    timeMs,
  };
}

/** How a position stands, in a player's terms: goats ahead or behind, a forced capture or win. */
export interface Verdict {
  /** The kind of answer: the game's end, a forced win, a forced capture, a lead, or none. */
  readonly kind: 'over' | 'win' | 'capture' | 'lead' | 'even';
  /**
   * In words, e.g. "Tigers are about 2 goats ahead", "Tigers take a goat in 2 moves", "Goats trap
   * the tigers in 3 moves", "Tigers win — 5 goats captured". No score: its units mean nothing to
   * a player.
   */
  readonly words: string;
  /** The score from `view` in goats, clamped to ±10: a bar's length. */
  readonly goats: number;
}

/** How a game ended, as a room's snapshot or an offline game says it. */
export interface GameResult {
  readonly winner: Side | null;
  readonly reason: string;
}

/** Plies as the moves of the side that gets there. */
const movesIn = (plies: number): number => Math.max(1, Math.ceil(plies / 2));
/** The moves as the page's language writes the number. */
const count = (plies: number): string => digits(String(movesIn(plies)));
/** From this many goats' worth on, a lead is "far ahead" (the tigers win at 5 captures). */
const FAR = 4.5;

/** A lead of `goats` (positive: the tigers') in words. */
function leadWords(goats: number): string {
  const tigers = goats > 0;
  const size = Math.abs(goats);
  if (size >= FAR) return tigers ? m.verdict_tigers_far_ahead() : m.verdict_goats_far_ahead();
  if (size < 1.5) return tigers ? m.verdict_tigers_ahead_one() : m.verdict_goats_ahead_one();
  const n = digits(String(Math.round(size)));
  return tigers ? m.verdict_tigers_ahead({ count: n }) : m.verdict_goats_ahead({ count: n });
}

/** A forced win `plies` away, counted in the winner's moves ("Tigers win in 5 moves"). */
export function winWords(tigers: boolean, plies: number): string {
  const one = movesIn(plies) === 1;
  if (tigers) return one ? m.verdict_tigers_win_one() : m.verdict_tigers_win_in({ count: count(plies) });
  return one ? m.verdict_goats_trap_one() : m.verdict_goats_trap_in({ count: count(plies) });
}

/**
 * The engine's answer as a player reads it; the bar from `view`'s side. `result`: how the game
 * ended, when the position is its last (a resignation, a flag, or the rules' end).
 */
export function verdictOf(reply: AnalysisReply, view: Side, result: GameResult | null = null): Verdict {
  const sign = view === 'tiger' ? 1 : -1;
  const bar = (forTigers: number) => Math.max(-10, Math.min(10, (sign * forTigers) / GOAT));
  // The rules ended the game here: the engine scores the end as a win of no plies.
  const ended = reply.mateIn === null && Math.abs(reply.forTigers) >= WIN_SCORE;
  if (result || ended) {
    const winner = result ? result.winner : reply.forTigers > 0 ? 'tiger' : 'goat';
    const words = result
      ? resultText(result)
      : winner === 'tiger'
        ? m.verdict_tigers_won()
        : m.verdict_goats_won();
    return { kind: 'over', words, goats: winner ? bar(winner === 'tiger' ? WIN_SCORE : -WIN_SCORE) : 0 };
  }
  if (reply.mateIn !== null) {
    const tigers = reply.mateIn > 0;
    return {
      kind: 'win',
      words: winWords(tigers, Math.abs(reply.mateIn)),
      goats: bar(tigers ? WIN_SCORE : -WIN_SCORE),
    };
  }
  const goats = reply.forTigers / GOAT;
  if (reply.captureIn !== null) {
    const words =
      movesIn(reply.captureIn) === 1
        ? m.verdict_capture_one()
        : m.verdict_capture_in({ count: count(reply.captureIn) });
    return { kind: 'capture', words, goats: bar(reply.forTigers) };
  }
  if (Math.abs(goats) < EVEN) return { kind: 'even', words: m.verdict_even(), goats: bar(reply.forTigers) };
  return { kind: 'lead', words: leadWords(goats), goats: bar(reply.forTigers) };
}

/**
 * Asks the engine's worker about positions; answers are cached by position, so stepping back
 * and forth through a game asks the engine once per position.
 */
export class Analyser {
  readonly #engine: EngineClient;
  readonly #cache = new Map<string, Promise<AnalysisReply>>();

  constructor(create?: () => WorkerLike) {
    this.#engine = new EngineClient(create);
  }

  analyse(request: AnalysisRequest): Promise<AnalysisReply> {
    const key = JSON.stringify([
      request.variant,
      request.options,
      request.start,
      request.moves,
      request.timeMs,
    ]);
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const answer = this.#engine.analyse(request);
    this.#cache.set(key, answer);
    answer.catch(() => this.#cache.delete(key));
    return answer;
  }

  close(): void {
    this.#engine.close();
    this.#cache.clear();
  }
}
