export { type BotChoice, chooseMove, seededRandom } from './bot.js';
export { DEFAULT_WEIGHTS, evaluateForTigers, type Weights, WIN_SCORE } from './evaluate.js';
export { LEVEL_SETTINGS, LEVELS, type Level, type LevelSettings } from './levels.js';
export { Searcher, type SearchLimits, type SearchResult } from './search.js';
