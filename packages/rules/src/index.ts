export * from './types.js';
export {
  POINT_COUNT,
  GEOMETRIES,
  type Geometry,
  type BoardKind,
  makePoint,
  parsePoint,
  pointColumn,
  pointRow,
  pointAt,
  hasDiagonals,
  areNeighbours,
  pointsOf,
} from './geometry.js';
export { VARIANT_RULES, resolveOptions, DEFAULT_OPTIONS, type VariantRules } from './variants.js';
export { startPosition, positionFromSetup, type SetupError, type SetupErrorCode } from './setup.js';
export {
  type Game,
  type PlayError,
  type PlayErrorCode,
  createGame,
  legalMoves,
  play,
  playMoveText,
  playMoveTexts,
  sameMove,
} from './game.js';
export { parseMove, makeMove, type MoveParseError } from './notation/move.js';
export { parsePosition, makePosition, makeBoardText, type PositionParseError } from './notation/position.js';
export {
  parseRecord,
  makeRecord,
  makeOptionsText,
  parseOptionsText,
  type GameRecord,
  type RecordResult,
  type RecordError,
} from './notation/record.js';
export { parseObx, makeObx, makeObxMove, type ObxError } from './notation/obx.js';
export { perft } from './perft.js';
