/** The sliding-phase tablebase for Node (files on disk): `@bagh/engine/tablebase`. The web never imports it. */
export * from './files.js';
export * from './oracle.js';
export { solveTierParallel } from './parallel.js';
export * from './probe.js';
export * from './prover.js';
export * from './race.js';
export { solveTier, type TierProgress } from './solver.js';
export { TIER_COUNT, TierSpace } from './space.js';
export { boardsUpToSymmetry, positionAt, type TierStats, tierStats } from './stats.js';
