/** For search engines: the mutable board (make/unmake, incremental hash) and a game's R13 history. */
export { Board as SearchBoard, MAX_MOVES, RepetitionTable } from './board.js';
export {
  createGame,
  type Game,
  historyOf,
  legalMoves,
  type PlayError,
  type PlayErrorCode,
  play,
  playMoveText,
  playMoveTexts,
  sameMove,
} from './game.js';
export { GAME_ARGS_USAGE, type GameArgs, parseGameArgs } from './game-args.js';
export {
  ALL_POINTS_MASK,
  areNeighbours,
  type BoardKind,
  GEOMETRIES,
  type Geometry,
  hasDiagonals,
  lowestPoint,
  makePoint,
  POINT_COUNT,
  parsePoint,
  pointAt,
  pointColumn,
  pointRow,
  pointsOf,
  popcount,
} from './geometry.js';
export {
  ABORTED,
  AGREED_DRAW,
  abandonment,
  type Clock,
  type ClockReading,
  type ClockTimes,
  canAbort,
  canTakeBack,
  clockAfterMove,
  clockReadingAt,
  DECLARED_REASONS,
  type DeclaredReason,
  type DeclaredResult,
  flagAt,
  flagDue,
  flaggedSide,
  type GameSpec,
  type GameSpecError,
  gameAtPly,
  gameFromMoves,
  lastMoveIndexOf,
  moverOf,
  moverTimeAfterMove,
  remainingAt,
  resignation,
  resultOf,
  resumeClock,
  runningSide,
  type SideTimes,
  startClock,
  stopClock,
  stopClockWith,
  type TimeControl,
  timeout,
  withMoverTime,
} from './match/index.js';
export { type MoveParseError, makeMove, parseMove } from './notation/move.js';
export { makeObx, makeObxMove, type ObxError, parseObx } from './notation/obx.js';
export { makeBoardText, makePosition, type PositionParseError, parsePosition } from './notation/position.js';
export {
  type GameRecord,
  makeOptionsText,
  makeRecord,
  parseOptionsText,
  parseRecord,
  type RecordError,
  type RecordResult,
} from './notation/record.js';
export { perft, perftGeneral } from './perft.js';
export {
  explainMove,
  explainMoveText,
  explainPoints,
  explainTap,
  type Refusal,
  type RefusalKind,
} from './refusal.js';
export { RULES_USAGE, type RulesCommandResult, runRulesCommand } from './rules-command.js';
export { positionFromSetup, type SetupError, type SetupErrorCode, startPosition } from './setup.js';
export * from './types.js';
export {
  choosableOptions,
  chosenOptions,
  DEFAULT_OPTIONS,
  optionRefusal,
  resolveOptions,
  unsupportedOptions,
  VARIANT_RULES,
  type VariantRules,
} from './variants.js';
