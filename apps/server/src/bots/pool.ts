/**
 * The computer's moves, searched off the event loop: a small pool of worker threads running
 * `@bagh/engine/node-worker`, one request at a time per worker, the rest queued in order. Each
 * request is bounded by its level's budget: a worker that overruns it badly (or dies) is
 * terminated and replaced, and the request is answered by a quick inline search instead, so a
 * bot always moves. With `workers: 0` the search runs inline (tests, tiny deployments).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type BotMoveReply, type BotMoveRequest, botMove, LEVEL_SETTINGS, Searcher } from '@bagh/engine';
import type { Logger } from 'pino';

export type { BotMoveRequest } from '@bagh/engine';

export interface BotPoolOptions {
  /** Worker threads (0: search inline, on the calling thread). */
  readonly workers: number;
  readonly log: Logger;
  /**
   * How far past its level's budget a request may run before its worker is replaced:
   * budget × 2 + this many ms (default 1000; the worker's first request also loads the engine).
   */
  readonly overrunMs?: number;
}

interface Job {
  readonly id: number;
  readonly request: BotMoveRequest;
  readonly resolve: (reply: BotMoveReply) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | undefined;
}

const WORKER_PATH = createRequire(import.meta.url).resolve('@bagh/engine/node-worker');

export class BotPool {
  readonly #opts: BotPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;
  /** Requests answered by the inline fallback after a worker overran or died (for metrics, tests). */
  fallbacks = 0;

  constructor(opts: BotPoolOptions) {
    this.#opts = opts;
    for (let i = 0; i < opts.workers; i++) {
      const slot: Slot = { worker: this.#spawn(), job: null, timer: undefined };
      this.#slots.push(slot);
      this.#listen(slot);
    }
  }

  /** The worker threads now serving (tests kill one to see the pool recover). */
  get threads(): readonly Worker[] {
    return this.#slots.map((slot) => slot.worker);
  }

  /** The computer's move for the request (move null: the game is over). Rejects once closed. */
  move(request: BotMoveRequest): Promise<BotMoveReply> {
    if (this.#closed) return Promise.reject(new Error('the bot pool is closed'));
    if (this.#slots.length === 0) {
      try {
        return Promise.resolve(botMove(request));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    return new Promise<BotMoveReply>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, request, resolve, reject });
      this.#pump();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const error = new Error('the bot pool is closed');
    for (const job of this.#queue.splice(0)) job.reject(error);
    await Promise.all(
      this.#slots.map(async (slot) => {
        clearTimeout(slot.timer);
        slot.job?.reject(error);
        slot.job = null;
        await slot.worker.terminate();
      }),
    );
  }

  #spawn(): Worker {
    const worker = new Worker(WORKER_PATH);
    worker.unref();
    return worker;
  }

  /** Wires the slot's current worker: its answers, its failures, its death. */
  #listen(slot: Slot): void {
    const { worker } = slot;
    worker.on('message', (message: { id: number; ok: boolean; reply?: BotMoveReply; error?: string }) => {
      const job = slot.job;
      if (slot.worker !== worker || !job || job.id !== message.id) return;
      clearTimeout(slot.timer);
      slot.job = null;
      if (message.ok && message.reply) job.resolve(message.reply);
      else job.reject(new Error(message.error ?? 'the bot worker failed'));
      this.#pump();
    });
    worker.on('error', (error) => this.#opts.log.error({ err: error }, 'bot worker failed'));
    worker.on('exit', (code) => {
      if (slot.worker !== worker || this.#closed) return;
      this.#opts.log.warn({ code }, 'bot worker exited; replacing it');
      this.#replace(slot);
    });
  }

  /** A new worker in the slot; its job, if any, is answered inline. */
  #replace(slot: Slot): void {
    clearTimeout(slot.timer);
    const job = slot.job;
    const old = slot.worker;
    slot.job = null;
    slot.timer = undefined;
    slot.worker = this.#spawn();
    this.#listen(slot);
    void old.terminate();
    if (job) this.#fallback(job);
    this.#pump();
  }

  /** A quick, shallow search on this thread: a legal move in a few milliseconds. */
  #fallback(job: Job): void {
    this.fallbacks++;
    try {
      job.resolve(botMove(job.request, new Searcher(), { maxDepth: 2, timeMs: 100 }));
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (slot.job !== null) continue;
      const job = this.#queue.shift();
      if (!job) return;
      slot.job = job;
      const budget = LEVEL_SETTINGS[job.request.level].budgetMs;
      slot.timer = setTimeout(
        () => {
          if (slot.job !== job) return;
          this.#opts.log.warn(
            { level: job.request.level, budget },
            'bot worker overran its budget; replacing it',
          );
          this.#replace(slot);
        },
        budget * 2 + (this.#opts.overrunMs ?? 1000),
      );
      slot.timer.unref();
      slot.worker.postMessage({ id: job.id, request: job.request });
    }
  }
}
