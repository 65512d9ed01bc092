/**
 * Why a move is refused: typed reasons with their data, no English (the client words them, in
 * the player's language). `null` means the move is legal.
 */
import { Board } from './board.js';
import { type Game, legalMoves, sameMove } from './game.js';
import { areNeighbours, POINT_COUNT, parsePoint } from './geometry.js';
import { parseMove } from './notation/move.js';
import type { Move, Point, Side } from './types.js';

export type Refusal =
  | { readonly kind: 'game-over' }
  /** Not move text at all (R40). */
  | { readonly kind: 'bad-format' }
  /** The move belongs to the side not to move. */
  | { readonly kind: 'not-your-turn'; readonly toMove: Side }
  /** Nothing of `side`'s on the starting point. */
  | { readonly kind: 'no-piece'; readonly side: Side; readonly at: Point }
  | { readonly kind: 'occupied'; readonly at: Point }
  /** `to` is neither adjacent to `from` nor a jump away along a line (R3). */
  | { readonly kind: 'not-a-line'; readonly from: Point; readonly to: Point }
  /** A jump over a point holding no goat (empty, or a tiger: R12). */
  | { readonly kind: 'nothing-to-jump'; readonly from: Point; readonly over: Point; readonly to: Point }
  /** R11: goats are placed, not moved, while any remain in hand. */
  | { readonly kind: 'must-place'; readonly inHand: number }
  /** A placement with no goat in hand: goats move now (or this variant never places). */
  | { readonly kind: 'nothing-to-place' }
  | { readonly kind: 'tigers-never-place' }
  | { readonly kind: 'goats-never-jump' }
  /** R12 / R23 without multiJump. */
  | { readonly kind: 'one-jump-per-turn' }
  /** The piece at `at` is the mover's but has no legal move now. */
  | { readonly kind: 'no-move-from'; readonly at: Point }
  /** R13: the move would recreate the position after ply `ply` (0: the start position). */
  | { readonly kind: 'repeats'; readonly ply: number }
  /** Illegal for a reason none of the above names (e.g. a multi-jump crossing itself). */
  | { readonly kind: 'illegal' };

export type RefusalKind = Refusal['kind'];

const has = (mask: number, p: Point): boolean => ((mask >>> p) & 1) === 1;

/** Whose piece stands on `p`. */
function pieceAt(board: Board, p: Point): Side | null {
  if (has(board.tigers, p)) return 'tiger';
  return has(board.goatMask, p) ? 'goat' : null;
}

/**
 * Why `move` is refused in `game`, or null when it is legal. `by` is the side asking (a seated
 * player); without it the move is judged as the side to move's, and a move that is plainly the
 * other side's (a placement, or a piece of theirs) is "not your turn".
 */
export function explainMove(game: Game, move: Move, by?: Side): Refusal | null {
  if (game.outcome) return { kind: 'game-over' };
  const toMove = game.position.toMove;
  if (by && by !== toMove) return { kind: 'not-your-turn', toMove };
  if (legalMoves(game).some((m) => sameMove(m, move))) return null;
  const board = new Board(game.variant, game.options, game.position);
  const mover = by ?? toMove;

  if (move.kind === 'place') {
    if (mover === 'tiger') return by ? { kind: 'tigers-never-place' } : { kind: 'not-your-turn', toMove };
    if (board.goatsInHand === 0) return { kind: 'nothing-to-place' };
    return { kind: 'occupied', at: move.to };
  }
  const owner = pieceAt(board, move.from);
  if (owner !== mover) {
    if (owner && !by) return { kind: 'not-your-turn', toMove };
    return { kind: 'no-piece', side: mover, at: move.from };
  }
  if (mover === 'goat' && board.goatsInHand > 0) return { kind: 'must-place', inHand: board.goatsInHand };
  if (move.kind === 'step') {
    if (!areNeighbours(board.geometry, move.from, move.to))
      return { kind: 'not-a-line', from: move.from, to: move.to };
    if (pieceAt(board, move.to)) return { kind: 'occupied', at: move.to };
    return repetition(game, move);
  }
  if (mover === 'goat') return { kind: 'goats-never-jump' };
  if (move.path.length > 1 && !board.multiJump) return { kind: 'one-jump-per-turn' };
  // Walk the jump leg by leg: goats taken earlier are gone, the tiger's start is empty.
  let goats = board.goatMask;
  let occupied = board.tigers | board.goatMask;
  let at = move.from;
  occupied &= ~(1 << at);
  for (const land of move.path) {
    const over = board.geometry.jumpOverBetween[at * POINT_COUNT + land]!;
    if (over < 0) return { kind: 'not-a-line', from: at, to: land };
    if (has(occupied, land)) return { kind: 'occupied', at: land };
    if (!has(goats, over)) return { kind: 'nothing-to-jump', from: at, over, to: land };
    goats &= ~(1 << over);
    occupied &= ~(1 << over);
    at = land;
  }
  return repetition(game, move);
}

/** A pseudo-legal move that is still not legal: R13, and which ply it would repeat. */
function repetition(game: Game, move: Move): Refusal {
  const board = new Board(game.variant, game.options, game.start);
  const seen = new Map<number | string, number>();
  const remember = (ply: number) => {
    if (board.goatsInHand === 0 && !seen.has(board.exactKey())) seen.set(board.exactKey(), ply);
  };
  remember(0);
  game.moves.forEach((m, i) => {
    board.make(m);
    remember(i + 1);
  });
  board.make(move);
  const ply = board.noRepeat && board.goatsInHand === 0 ? seen.get(board.exactKey()) : undefined;
  return ply === undefined ? { kind: 'illegal' } : { kind: 'repeats', ply };
}

/**
 * Why a typed move (R40 text) is refused, or null when it is legal. Well-formed points that
 * `parseMove` rejects as a shape (`a4-c2`: a step to a point that is not adjacent) are judged
 * as the points they name, so the player hears the rule rather than the notation.
 */
export function explainMoveText(game: Game, text: string, by?: Side): Refusal | null {
  const parsed = parseMove(text);
  if (parsed.ok) return explainMove(game, parsed.value, by);
  const points = /^\s*([a-e][1-5])\s*[-x]?\s*([a-e][1-5])\s*$/i.exec(text);
  if (!points) return { kind: 'bad-format' };
  const refusal = explainPoints(game, parsePoint(points[1]!)!, parsePoint(points[2]!)!, by);
  // Legal as the points say, but not as written (a jump typed as a step `-`).
  return refusal ?? { kind: 'bad-format' };
}

/**
 * Why going from `from` to `to` is refused (a step when they are neighbours, else a jump), or
 * null when it is legal; for a board's taps.
 */
export function explainPoints(game: Game, from: Point, to: Point, by?: Side): Refusal | null {
  const board = new Board(game.variant, game.options, game.position);
  const move: Move = areNeighbours(board.geometry, from, to)
    ? { kind: 'step', from, to }
    : { kind: 'jump', from, path: [to] };
  return explainMove(game, move, by);
}

/**
 * Why a tap on `at` with nothing selected starts no move, or null when it does: a placement
 * there, or a piece of the mover's with a legal move from there.
 */
export function explainTap(game: Game, at: Point, by?: Side): Refusal | null {
  if (game.outcome) return { kind: 'game-over' };
  const toMove = game.position.toMove;
  if (by && by !== toMove) return { kind: 'not-your-turn', toMove };
  const moves = legalMoves(game);
  if (moves.some((m) => (m.kind === 'place' ? m.to === at : m.from === at))) return null;
  const board = new Board(game.variant, game.options, game.position);
  const mover = by ?? toMove;
  const owner = pieceAt(board, at);
  if (mover === 'goat' && board.goatsInHand > 0) {
    if (owner === 'goat') return { kind: 'must-place', inHand: board.goatsInHand };
    if (owner) return { kind: 'occupied', at };
    return explainMove(game, { kind: 'place', to: at }, by);
  }
  if (owner !== mover) {
    if (owner && !by) return { kind: 'not-your-turn', toMove };
    return { kind: 'no-piece', side: mover, at };
  }
  return { kind: 'no-move-from', at };
}
