export {
  type BotChoice,
  chooseMove,
  type MoveOracle,
  seededRandom,
  useMoveOracle,
  useTableProbe,
} from './bot.js';
export { type CommandResult, runBotCommand } from './bot-command.js';
export { DEFAULT_WEIGHTS, evaluateForTigers, GOAT_WEIGHTS, type Weights, WIN_SCORE } from './evaluate.js';
export { LEVEL_SETTINGS, LEVELS, type Level, type LevelSettings } from './levels.js';
export { everySoundOpening, OPENING_PLIES, soundOpening } from './openings.js';
export {
  type AnalysisReply,
  type AnalysisRequest,
  analyse,
  type BotMoveReply,
  type BotMoveRequest,
  botMove,
  gameOf,
  type PositionRequest,
} from './request.js';
export { Searcher, type SearchLimits, type SearchResult, type TableProbe } from './search.js';
