/** A worker thread of the parallel solver (parallel.ts): init and sweep ranges on shared arrays. */
import { parentPort, workerData } from 'node:worker_threads';
import { initRange, sweepRange, type TierWork } from './solver.js';

export interface WorkerSetup {
  readonly tier: number;
  readonly values: SharedArrayBuffer;
  readonly counts: SharedArrayBuffer;
  readonly pending: SharedArrayBuffer | null;
  readonly above: SharedArrayBuffer | null;
}
export type WorkerTask =
  | { readonly kind: 'init'; readonly from: number; readonly to: number }
  | { readonly kind: 'sweep'; readonly level: number; readonly from: number; readonly to: number };

const setup = workerData as WorkerSetup;
const work: TierWork = {
  tier: setup.tier,
  values: new Uint16Array(setup.values),
  counts: new Uint8Array(setup.counts),
  pending: setup.pending && new Uint16Array(setup.pending),
  above: setup.above && new Uint16Array(setup.above),
};
parentPort!.on('message', (task: WorkerTask) => {
  const result =
    task.kind === 'init'
      ? initRange(work, task.from, task.to)
      : sweepRange(work, task.level, task.from, task.to);
  parentPort!.postMessage(result);
});
