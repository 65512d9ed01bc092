/** The match layer: clocks, declared results and games from plain data, shared by every player. */
export * from './clock.js';
export * from './end.js';
export * from './replay.js';
