/**
 * A client for the engine's Web Worker (created on first use, so the engine is never in the
 * page's own bundle): each question gets an id, and its answer settles the matching promise.
 * A question asked while the worker is busy waits for the answers before it.
 */
import type { AnalysisReply, AnalysisRequest, BotMoveReply, BotMoveRequest } from '@bagh/engine';
import type { EngineAnswer, EngineMessage, EngineReplies, EngineTask } from './engine.worker.js';

/** What the client needs of a Worker (a real one, or a stand-in in tests). */
export interface WorkerLike {
  postMessage(message: EngineMessage): void;
  onmessage: ((event: MessageEvent<EngineAnswer>) => void) | null;
  /** The worker failed (its script did not load, or it threw outside a question). */
  onerror?: ((event: Event) => void) | null;
  terminate(): void;
}

export const createEngineWorker = (): WorkerLike =>
  new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module' }) as WorkerLike;

export class EngineClient {
  readonly #create: () => WorkerLike;
  #worker: WorkerLike | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, (answer: EngineAnswer) => void>();

  constructor(create: () => WorkerLike = createEngineWorker) {
    this.#create = create;
  }

  analyse(request: AnalysisRequest): Promise<AnalysisReply> {
    return this.#ask({ kind: 'analyse', request });
  }

  /** The computer's move at the request's level. */
  move(request: BotMoveRequest): Promise<BotMoveReply> {
    return this.#ask({ kind: 'move', request });
  }

  /** Starts the worker now (it loads the engine) instead of at the first question. */
  start(): void {
    this.#ensure();
  }

  /** Stops the worker; questions not yet answered fail. The next question starts a new one. */
  close(reason = 'engine stopped'): void {
    this.#worker?.terminate();
    this.#worker = null;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const settle of pending) settle({ id: 0, ok: false, error: reason });
  }

  #ask<K extends EngineTask['kind']>(task: EngineTask & { kind: K }): Promise<EngineReplies[K]> {
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      this.#pending.set(id, (answer) =>
        answer.ok ? resolve(answer.reply as EngineReplies[K]) : reject(new Error(answer.error)),
      );
      this.#ensure().postMessage({ ...task, id });
    });
  }

  #ensure(): WorkerLike {
    if (this.#worker) return this.#worker;
    const worker = this.#create();
    worker.onmessage = (event) => {
      const settle = this.#pending.get(event.data.id);
      this.#pending.delete(event.data.id);
      settle?.(event.data);
    };
    worker.onerror = (event) => {
      const message = 'message' in event && typeof event.message === 'string' ? event.message : '';
      this.close(message || 'the engine failed');
    };
    this.#worker = worker;
    return worker;
  }
}
