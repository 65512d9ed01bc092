/**
 * Post-game analysis: what to ask the engine about a replayed position, how to say its answer,
 * and a small client for the analysis Web Worker (created on first use, so the engine is never
 * in the page's own bundle). The engine's evaluation is in its units (a goat captured ≈ 120);
 * shown here in goats, from the side the user picks.
 */
import type { AnalysisReply, AnalysisRequest } from '@bagh/engine';
import type { Snapshot } from '@bagh/protocol';
import type { Side } from '@bagh/rules';
import type { AnalysisAnswer, AnalysisMessage } from './analysis.worker.js';

/** Milliseconds of search per position. */
export const ANALYSIS_MS = 500;
/** The engine's value of one captured goat (its `capture` weight): the unit shown. */
const GOAT = 120;

/** The engine's question for the position after `ply` moves of the game. */
export function analysisRequest(snapshot: Snapshot, ply: number, timeMs = ANALYSIS_MS): AnalysisRequest {
  return {
    variant: snapshot.variant,
    options: snapshot.options,
    moves: snapshot.moves.slice(0, Math.max(0, Math.min(ply, snapshot.moves.length))),
    timeMs,
  };
}

export interface Verdict {
  /** "+1.3", "−0.4", "0.0" (goats' worth, from `view`), or "wins in 5" for a forced win. */
  readonly value: string;
  /** In words, e.g. "Goats are better", "Tigers win in 3 moves". */
  readonly words: string;
  /** The score from `view` in goats, clamped to ±10: a bar's length. */
  readonly goats: number;
}

const sideWord = (side: Side): string => (side === 'tiger' ? 'Tigers' : 'Goats');

/** The engine's answer as seen from `view`'s side. */
export function verdictOf(reply: AnalysisReply, view: Side): Verdict {
  const sign = view === 'tiger' ? 1 : -1;
  if (reply.mateIn !== null) {
    const winner: Side = reply.mateIn > 0 ? 'tiger' : 'goat';
    const plies = Math.abs(reply.mateIn);
    const moves = Math.max(1, Math.ceil(plies / 2));
    const mine = winner === view;
    return {
      value: `${mine ? '+' : '−'}#${moves}`,
      words: `${sideWord(winner)} win in ${moves} ${moves === 1 ? 'move' : 'moves'}`,
      goats: mine ? 10 : -10,
    };
  }
  const goats = (sign * reply.forTigers) / GOAT;
  const rounded = Math.round(goats * 10) / 10;
  const value = rounded === 0 ? '0.0' : `${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(1)}`;
  let words = 'About even';
  if (Math.abs(rounded) >= 0.3) {
    const better: Side = rounded > 0 ? view : view === 'tiger' ? 'goat' : 'tiger';
    words = `${sideWord(better)} are ${Math.abs(rounded) >= 1.5 ? 'clearly ' : ''}better`;
  }
  return { value, words, goats: Math.max(-10, Math.min(10, goats)) };
}

/** What the analysis worker needs of a Worker (a real one, or a stand-in in tests). */
export interface WorkerLike {
  postMessage(message: AnalysisMessage): void;
  onmessage: ((event: MessageEvent<AnalysisAnswer>) => void) | null;
  terminate(): void;
}

export const createAnalysisWorker = (): WorkerLike =>
  new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module' }) as WorkerLike;

/**
 * Talks to one analysis worker, created on first use; answers are cached by position, so
 * stepping back and forth through a game asks the engine once per position.
 */
export class Analyser {
  readonly #create: () => WorkerLike;
  #worker: WorkerLike | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, (answer: AnalysisAnswer) => void>();
  readonly #cache = new Map<string, Promise<AnalysisReply>>();

  constructor(create: () => WorkerLike = createAnalysisWorker) {
    this.#create = create;
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
    const answer = new Promise<AnalysisReply>((resolve, reject) => {
      const id = this.#nextId++;
      this.#pending.set(id, (reply) => (reply.ok ? resolve(reply.reply) : reject(new Error(reply.error))));
      this.#ensure().postMessage({ id, request });
    });
    this.#cache.set(key, answer);
    answer.catch(() => this.#cache.delete(key));
    return answer;
  }

  close(): void {
    this.#worker?.terminate();
    this.#worker = null;
    for (const settle of this.#pending.values()) settle({ id: 0, ok: false, error: 'analysis stopped' });
    this.#pending.clear();
    this.#cache.clear();
  }

  #ensure(): WorkerLike {
    if (this.#worker) return this.#worker;
    const worker = this.#create();
    worker.onmessage = (event) => {
      const settle = this.#pending.get(event.data.id);
      this.#pending.delete(event.data.id);
      settle?.(event.data);
    };
    this.#worker = worker;
    return worker;
  }
}
