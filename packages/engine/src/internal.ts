/** The search's parts, for the bench's baseline (packages/engine/tools); neither the server nor the web imports them. */
export { baghChalEndgame, type EndgameTable } from './endgame.js';
export { scanCaptures } from './evaluate.js';
export { EXACT, LOWER, TranspositionTable, UPPER } from './transposition.js';
