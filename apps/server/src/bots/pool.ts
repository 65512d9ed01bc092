/**
 * The computer's moves, searched off the event loop: a small pool of worker threads running
 * `@bagh/engine/node-worker`, one request at a time per worker, the rest waiting in a queue that
 * is fair across rooms (FairQueue: one request per room, the quicker levels not held behind
 * long searches). A request whose answer is no longer wanted (its signal aborted) leaves the
 * queue, or, running, has its search stopped through a flag shared with the worker. Each request
 * is bounded by its level's budget: a worker that overruns it badly (or dies) is terminated and
 * replaced, and the request is answered by a quick inline search instead, so a bot always moves.
 * With `workers: 0` the search runs inline (tests, tiny deployments).
 */
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { type BotMoveReply, type BotMoveRequest, botMove, LEVEL_SETTINGS, Searcher } from '@bagh/engine';
import type { Logger } from 'pino';
import { FairQueue } from './queue.js';

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

/** Who asks, and how they take a request back. */
export interface BotSearch {
  /** The room asking: it has at most one request queued, a newer one replacing the older. */
  readonly room?: string | undefined;
  /** Aborted: a queued request leaves the queue, a running search stops; the move rejects. */
  readonly signal?: AbortSignal | undefined;
}

/** The rejection of a request that was cancelled or replaced before its answer. */
export class BotSearchCancelled extends Error {
  override readonly name = 'BotSearchCancelled';
}

interface Job {
  readonly id: number;
  /** Its room, or a key of its own. */
  readonly key: string;
  readonly request: BotMoveRequest;
  /** Settles the caller's promise, once: a cancelled search's late answer is dropped. */
  readonly settle: (outcome: { reply: BotMoveReply } | { error: Error }) => void;
  cancelled: boolean;
}

interface Slot {
  worker: Worker;
  /** Shared with the worker (and its replacements): the id of a search to stop. */
  readonly stop: Int32Array;
  job: Job | null;
  timer: NodeJS.Timeout | undefined;
}

/** How long a closing pool waits for a stopped search to answer, and then for the worker to settle. */
const WORKER_STOP_MS = 1000;
const WORKER_SETTLE_MS = 50;

/** Resolves at the worker's next message or exit, or after `timeoutMs`. */
function idle(worker: Worker, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('message', done).off('exit', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    worker.once('message', done).once('exit', done);
  });
}

const WORKER_PATH = createRequire(import.meta.url).resolve('@bagh/engine/node-worker');

export class BotPool {
  readonly #opts: BotPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue = new FairQueue<Job>();
  #nextId = 1;
  #closed = false;
  /** The verified sliding-phase tablebase every worker's `max` plays from (null: search only). */
  #tablebase: string | null = null;
  /** Requests answered by the inline fallback after a worker overran or died (for metrics, tests). */
  fallbacks = 0;
  /** Requests handed to a worker (for metrics, tests). */
  searches = 0;
  /** Requests cancelled or replaced before their answer, queued or running (for metrics, tests). */
  cancelled = 0;

  constructor(opts: BotPoolOptions) {
    this.#opts = opts;
    for (let i = 0; i < opts.workers; i++) {
      const stop = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
      const slot: Slot = { worker: this.#spawn(stop), stop, job: null, timer: undefined };
      this.#slots.push(slot);
      this.#listen(slot);
    }
  }

  /**
   * Makes `max` play the tablebase's best move in the sliding phase: the workers open the table
   * in `dir` (already verified against its checksums) and so does every worker spawned later.
   */
  useTablebase(dir: string): void {
    this.#tablebase = dir;
    for (const slot of this.#slots) slot.worker.postMessage({ tablebase: dir });
  }

  /** Requests waiting for a worker. */
  get queued(): number {
    return this.#queue.size;
  }

  /** Workers busy with a search (a cancelled one included, until it has stopped). */
  get busy(): number {
    return this.#slots.filter((slot) => slot.job !== null).length;
  }

  /** The worker threads now serving (tests kill one to see the pool recover). */
  get threads(): readonly Worker[] {
    return this.#slots.map((slot) => slot.worker);
  }

  /**
   * The computer's move for the request (move null: the game is over). Rejects once closed, and
   * with BotSearchCancelled when `search.signal` aborts or a newer request of its room replaces it.
   */
  move(request: BotMoveRequest, search: BotSearch = {}): Promise<BotMoveReply> {
    if (this.#closed) return Promise.reject(new Error('the bot pool is closed'));
    const { signal } = search;
    if (signal?.aborted) return Promise.reject(new BotSearchCancelled('the search was cancelled'));
    if (this.#slots.length === 0) {
      try {
        return Promise.resolve(botMove(request));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    return new Promise<BotMoveReply>((resolve, reject) => {
      const id = this.#nextId++;
      let settled = false;
      const onAbort = () => this.#cancel(job, 'the search was cancelled');
      const job: Job = {
        id,
        key: search.room ?? `#${id}`,
        request,
        cancelled: false,
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          if ('reply' in outcome) resolve(outcome.reply);
          else reject(outcome.error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const budget = LEVEL_SETTINGS[request.level].budgetMs;
      const replaced = this.#queue.put(job.key, job, budget, performance.now());
      if (replaced) this.#cancel(replaced, 'replaced by a newer request of its room');
      this.#pump();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const error = new Error('the bot pool is closed');
    for (const job of this.#queue.clear()) job.settle({ error });
    await Promise.all(
      this.#slots.map(async (slot) => {
        clearTimeout(slot.timer);
        const job = slot.job;
        slot.job = null;
        job?.settle({ error });
        // Node 20 can abort the whole process when a worker is terminated while V8 still
        // optimizes its hot search code on a background thread: stop the search, let the
        // worker go idle, then end it.
        if (job) {
          Atomics.store(slot.stop, 0, job.id);
          await idle(slot.worker, WORKER_STOP_MS);
        }
        await sleep(WORKER_SETTLE_MS);
        await slot.worker.terminate();
      }),
    );
  }

  /**
   * Takes a request back: out of the queue, or, running, its search told to stop (the worker
   * stays busy until it answers, within a node check, so a worker never holds two searches).
   */
  #cancel(job: Job, why: string): void {
    if (job.cancelled) return;
    job.cancelled = true;
    this.cancelled++;
    if (!this.#queue.remove(job.key, job)) {
      const slot = this.#slots.find((held) => held.job === job);
      if (slot) Atomics.store(slot.stop, 0, job.id);
    }
    job.settle({ error: new BotSearchCancelled(why) });
  }

  #spawn(stop: Int32Array): Worker {
    const worker = new Worker(WORKER_PATH, { workerData: { stop, tablebase: this.#tablebase } });
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
      job.settle(
        message.ok && message.reply
          ? { reply: message.reply }
          : { error: new Error(message.error ?? 'the bot worker failed') },
      );
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
    slot.worker = this.#spawn(slot.stop);
    this.#listen(slot);
    void old.terminate();
    if (job && !job.cancelled) this.#fallback(job);
    this.#pump();
  }

  /** A quick, shallow search on this thread: a legal move in a few milliseconds. */
  #fallback(job: Job): void {
    this.fallbacks++;
    try {
      job.settle({ reply: botMove(job.request, new Searcher(), { maxDepth: 2, timeMs: 100 }) });
    } catch (error) {
      job.settle({ error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (slot.job !== null) continue;
      const job = this.#queue.take();
      if (!job) return;
      slot.job = job;
      this.searches++;
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
