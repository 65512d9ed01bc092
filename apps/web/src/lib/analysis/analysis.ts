/**
 * Post-game analysis: what to ask the engine about a replayed position, how to say its answer,
 * and a cache in front of the engine's Web Worker. The engine's evaluation is in its units (a
 * goat captured ≈ 120); shown here in goats, from the side the user picks.
 */
import type { AnalysisReply, AnalysisRequest } from '@bagh/engine';
import type { Options, Side, Variant } from '@bagh/rules';
import { m } from '../../paraglide/messages.js';
import { EngineClient, type WorkerLike } from '../engine/engine-client.js';
import { digits } from '../i18n/i18n.svelte.js';

/** Milliseconds of search per position. */
export const ANALYSIS_MS = 500;
/** The engine's value of one captured goat (its `capture` weight): the unit shown. */
const GOAT = 120;

/** A game from its variant's start: a room's snapshot, or an offline game's moves. */
export interface GameLine {
  readonly variant: Variant;
  readonly options: Partial<Options>;
  /** Move texts (R40). */
  readonly moves: readonly string[];
}

/** The engine's question for the position after `ply` moves of the game. */
export function analysisRequest(game: GameLine, ply: number, timeMs = ANALYSIS_MS): AnalysisRequest {
  return {
    variant: game.variant,
    options: game.options,
    moves: game.moves.slice(0, Math.max(0, Math.min(ply, game.moves.length))),
    timeMs,
  };
}

export interface Verdict {
  /** "+1.3", "−0.4", "0.0" (goats' worth, from `view`), or "+#5" for a forced win. */
  readonly value: string;
  /** In words, e.g. "Goats are better", "Tigers win in 3 moves", "Tigers take a goat in 2 moves". */
  readonly words: string;
  /** The score from `view` in goats, clamped to ±10: a bar's length. */
  readonly goats: number;
}

/** Plies as the moves of the side that gets there. */
const movesIn = (plies: number): number => Math.max(1, Math.ceil(plies / 2));
/** The moves as the page's language writes the number. */
const count = (plies: number): string => digits(String(movesIn(plies)));

/** The engine's answer as seen from `view`'s side. */
export function verdictOf(reply: AnalysisReply, view: Side): Verdict {
  const sign = view === 'tiger' ? 1 : -1;
  if (reply.mateIn !== null) {
    const winner: Side = reply.mateIn > 0 ? 'tiger' : 'goat';
    const plies = Math.abs(reply.mateIn);
    const mine = winner === view;
    return {
      value: `${mine ? '+' : '−'}#${movesIn(plies)}`,
      words:
        movesIn(plies) === 1
          ? winner === 'tiger'
            ? m.verdict_tigers_win_one()
            : m.verdict_goats_win_one()
          : winner === 'tiger'
            ? m.verdict_tigers_win_in({ count: count(plies) })
            : m.verdict_goats_win_in({ count: count(plies) }),
      goats: mine ? 10 : -10,
    };
  }
  const goats = (sign * reply.forTigers) / GOAT;
  const rounded = Math.round(goats * 10) / 10;
  const value = rounded === 0 ? '0.0' : `${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(1)}`;
  let words = m.verdict_even();
  if (reply.captureIn !== null)
    words =
      movesIn(reply.captureIn) === 1
        ? m.verdict_capture_one()
        : m.verdict_capture_in({ count: count(reply.captureIn) });
  else if (Math.abs(rounded) >= 0.3) {
    const better: Side = rounded > 0 ? view : view === 'tiger' ? 'goat' : 'tiger';
    const clearly = Math.abs(rounded) >= 1.5;
    words =
      better === 'tiger'
        ? clearly
          ? m.verdict_tigers_clearly_better()
          : m.verdict_tigers_better()
        : clearly
          ? m.verdict_goats_clearly_better()
          : m.verdict_goats_better();
  }
  return { value, words, goats: Math.max(-10, Math.min(10, goats)) };
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
