/**
 * The public game API: plain immutable data in, plain immutable data out. A `Game` is a start
 * position plus the moves played; everything derived from it (legal moves, outcome, the
 * repetition history) is cached beside it, never inside it.
 */
import { Board, RepetitionTable } from './board.js';
import { makeMove, parseMove } from './notation/move.js';
import { positionFromSetup, type SetupError, startPosition } from './setup.js';
import {
  err,
  type Move,
  type Options,
  type Outcome,
  ok,
  type Position,
  type Result,
  type RulesError,
  rulesError,
  type Variant,
} from './types.js';
import { optionRefusal, resolveOptions, unsupportedOptions } from './variants.js';

export interface Game {
  readonly variant: Variant;
  readonly options: Options;
  readonly start: Position;
  readonly position: Position;
  readonly moves: readonly Move[];
  /** null while the game goes on. */
  readonly outcome: Outcome | null;
}

export type PlayErrorCode = 'ERR_GAME_OVER' | 'ERR_ILLEGAL_MOVE' | 'ERR_REPETITION' | 'ERR_MOVE_SYNTAX';
export type PlayError = RulesError<PlayErrorCode>;

/**
 * The repetition history of the game that last extended it. A child game takes the parent's
 * table over (O(1) per move); asking again for an older game, or after JSON, rebuilds it.
 */
interface HistoryEntry {
  readonly table: RepetitionTable;
  readonly positions: { count: number };
}
const histories = new WeakMap<Game, HistoryEntry>();
const legalMoveCache = new WeakMap<Game, readonly Move[]>();

export function createGame(
  variant: Variant,
  options: Partial<Options> = {},
  start?: Position,
): Result<Game, SetupError> {
  const unsupported = unsupportedOptions(variant, options);
  if (unsupported.length > 0) {
    const why = unsupported.map((name) => optionRefusal(variant, name)).join('; ');
    return err(rulesError('ERR_OPTION', why));
  }
  const resolved = resolveOptions(variant, options);
  const checked = start ? positionFromSetup(variant, start) : ok(startPosition(variant, resolved.goatsFirst));
  if (!checked.ok) return checked;
  const board = new Board(variant, resolved, checked.value);
  const table = new RepetitionTable();
  board.record(table);
  const moves = board.legalMoves(table);
  const game: Game = {
    variant,
    options: resolved,
    start: checked.value,
    position: checked.value,
    moves: [],
    outcome: outcomeOf(board, moves.length),
  };
  histories.set(game, { table, positions: { count: 1 } });
  legalMoveCache.set(game, game.outcome ? [] : moves);
  return ok(game);
}

function outcomeOf(board: Board, legalMoveCount: number): Outcome | null {
  if (board.tigersHaveWon()) return { winner: 'tiger', reason: 'captures' };
  if (legalMoveCount > 0) return null;
  return board.goatToMove ? { winner: 'tiger', reason: 'blocked' } : { winner: 'goat', reason: 'trapped' };
}

/** The game's repetition history (internal: perft and search extend a copy of it). */
export function historyOf(game: Game): RepetitionTable {
  const entry = histories.get(game);
  if (entry && entry.positions.count === game.moves.length + 1) return entry.table;
  const board = new Board(game.variant, game.options, game.start);
  const table = new RepetitionTable();
  board.record(table);
  for (const move of game.moves) {
    board.make(move);
    board.record(table);
  }
  histories.set(game, { table, positions: { count: game.moves.length + 1 } });
  return table;
}

/** The legal moves of the side to move (none once the game is over). */
export function legalMoves(game: Game): readonly Move[] {
  const cached = legalMoveCache.get(game);
  if (cached) return cached;
  const moves = game.outcome
    ? []
    : new Board(game.variant, game.options, game.position).legalMoves(historyOf(game));
  legalMoveCache.set(game, moves);
  return moves;
}

export function sameMove(a: Move, b: Move): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'place') return a.to === (b as typeof a).to;
  if (a.kind === 'step') return a.from === (b as typeof a).from && a.to === (b as typeof a).to;
  const other = b as typeof a;
  return (
    a.from === other.from &&
    a.path.length === other.path.length &&
    a.path.every((p, i) => p === other.path[i])
  );
}

/** Plays a legal move; never throws on an illegal one. */
export function play(game: Game, move: Move): Result<Game, PlayError> {
  if (game.outcome) return err(rulesError('ERR_GAME_OVER', 'the game is over'));
  const table = historyOf(game);
  const board = new Board(game.variant, game.options, game.position);
  const pseudoLegal = board.generateMoves().some((m) => sameMove(m, move));
  if (!pseudoLegal) return err(rulesError('ERR_ILLEGAL_MOVE', explainIllegal(board, move)));
  board.make(move);
  if (board.repeats(table)) {
    return err(rulesError('ERR_REPETITION', `${makeMove(move)} would repeat an earlier position (R13)`));
  }
  board.record(table);
  const entry = histories.get(game)!;
  entry.positions.count++;
  const nextMoves = board.legalMoves(table);
  const next: Game = {
    variant: game.variant,
    options: game.options,
    start: game.start,
    position: board.toPosition(),
    moves: [...game.moves, move],
    outcome: outcomeOf(board, nextMoves.length),
  };
  histories.set(next, entry);
  legalMoveCache.set(next, next.outcome ? [] : nextMoves);
  return ok(next);
}

/** Parses RULES.md move text (R40) and plays it. */
export function playMoveText(game: Game, text: string): Result<Game, PlayError> {
  const parsed = parseMove(text);
  if (!parsed.ok) return err(rulesError('ERR_MOVE_SYNTAX', parsed.error.message));
  return play(game, parsed.value);
}

/** Plays several move texts; the error names the index of the move that failed. */
export function playMoveTexts(
  game: Game,
  texts: readonly string[],
): Result<Game, PlayError & { readonly index: number; readonly move: string }> {
  let current = game;
  for (const [index, text] of texts.entries()) {
    const result = playMoveText(current, text);
    if (!result.ok) return err({ ...result.error, index, move: text });
    current = result.value;
  }
  return ok(current);
}

function explainIllegal(board: Board, move: Move): string {
  const text = makeMove(move);
  const side = board.goatToMove ? 'goat' : 'tiger';
  if (move.kind === 'place') {
    if (!board.goatToMove) return `${text}: tigers are to move, and only goats are placed`;
    if (board.goatsInHand === 0) return `${text}: no goat is left in hand`;
    return `${text}: the point is not empty`;
  }
  if (board.goatToMove && board.goatsInHand > 0)
    return `${text}: goats must be placed while any remain in hand (R11)`;
  const ownsFrom = board.goatToMove
    ? ((board.goatMask >>> move.from) & 1) === 1
    : ((board.tigers >>> move.from) & 1) === 1;
  if (!ownsFrom) return `${text}: there is no ${side} on the starting point`;
  if (move.kind === 'jump' && board.goatToMove) return `${text}: goats never jump`;
  if (move.kind === 'jump' && move.path.length > 1 && !board.multiJump) return `${text}: one jump per turn`;
  return `${text}: no ${move.kind} along a line to an empty point is possible there`;
}

export type { Move, Options, Outcome, Position, Variant };
