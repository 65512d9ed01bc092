/**
 * The solver over worker threads: the init pass and each level's sweep cut into chunks handed out
 * to the workers as they finish one (the machine may be shared: a slow worker takes fewer), on
 * arrays in SharedArrayBuffers. A level ends when every chunk is done, then the next begins.
 */
import { Worker } from 'node:worker_threads';
import { createTierWork, type TierProgress } from './solver.js';
import { TIGER_SETS, TierSpace } from './space.js';
import type { WorkerSetup, WorkerTask } from './worker.js';

const INIT_CHUNK = 64;
const SWEEP_CHUNK = 1 << 21;

/** `above` must be in a SharedArrayBuffer. */
export async function solveTierParallel(
  tier: number,
  above: Uint16Array | null,
  threads: number,
  onProgress: (progress: TierProgress) => void = () => {},
): Promise<Uint16Array> {
  const space = new TierSpace(tier);
  const work = createTierWork(tier, above, true);
  const shared = (array: { buffer: ArrayBufferLike } | null) => {
    if (array !== null && !(array.buffer instanceof SharedArrayBuffer))
      throw new TypeError('the solver threads need shared arrays');
    return array === null ? null : (array.buffer as SharedArrayBuffer);
  };
  const setup: WorkerSetup = {
    tier,
    values: shared(work.values)!,
    counts: shared(work.counts)!,
    pending: shared(work.pending),
    above: shared(above),
  };
  const workers = Array.from(
    { length: Math.max(1, threads) },
    () => new Worker(new URL('./worker.js', import.meta.url), { workerData: setup }),
  );
  try {
    /** Runs the tasks on the workers, each taking the next as it finishes; the results in any order. */
    const runAll = (tasks: WorkerTask[], onResult: (result: number) => void): Promise<void> =>
      new Promise((resolve, reject) => {
        let next = 0;
        let running = 0;
        const feed = (worker: Worker): void => {
          if (next === tasks.length) {
            if (running === 0) resolve();
            return;
          }
          running++;
          worker.postMessage(tasks[next++]);
        };
        for (const worker of workers) {
          worker.removeAllListeners('message').removeAllListeners('error');
          worker.on('message', (result: number) => {
            running--;
            onResult(result);
            feed(worker);
          });
          worker.on('error', reject);
        }
        for (const worker of workers) feed(worker);
        if (tasks.length === 0) resolve();
      });

    let maxPending = 0;
    const initTasks: WorkerTask[] = [];
    for (let from = 0; from < TIGER_SETS; from += INIT_CHUNK)
      initTasks.push({ kind: 'init', from, to: Math.min(TIGER_SETS, from + INIT_CHUNK) });
    let initDone = 0;
    await runAll(initTasks, (result) => {
      maxPending = Math.max(maxPending, result);
      initDone++;
      onProgress({
        phase: 'init',
        done: Math.round((initDone / initTasks.length) * space.positions),
        total: space.positions,
        level: 0,
      });
    });
    let settled = 0;
    for (let level = 0; ; level++) {
      const tasks: WorkerTask[] = [];
      for (let from = 0; from < space.positions; from += SWEEP_CHUNK)
        tasks.push({ kind: 'sweep', level, from, to: Math.min(space.positions, from + SWEEP_CHUNK) });
      let found = 0;
      await runAll(tasks, (result) => {
        found += result;
        onProgress({ phase: 'level', done: settled + found, total: space.positions, level });
      });
      settled += found;
      if (found === 0 && level >= maxPending) break;
    }
    return work.values;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
