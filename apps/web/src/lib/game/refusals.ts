/**
 * Why the rules refuse a move, in words: the one place that turns @bagh/rules' typed refusals
 * into English (the i18n pass translates this module), and the board's and the move box's
 * questions put to the rules.
 */
import {
  explainMoveText,
  explainPoints,
  explainTap,
  type Game,
  makePoint,
  type Point,
  type Refusal,
  type Side,
} from '@bagh/rules';

const sides = (side: Side): string => (side === 'tiger' ? 'tigers' : 'goats');

export function refusalText(refusal: Refusal): string {
  switch (refusal.kind) {
    case 'game-over':
      return 'The game is over.';
    case 'bad-format':
      return 'Not a move: type a point such as c3, or a move such as a1b2 or a1xc3.';
    case 'not-your-turn':
      return `Not your turn: the ${sides(refusal.toMove)} are to move.`;
    case 'no-piece':
      return `There is no ${refusal.side} of yours on ${makePoint(refusal.at)}.`;
    case 'occupied':
      return `${makePoint(refusal.at)} is not empty.`;
    case 'not-a-line':
      return `No line joins ${makePoint(refusal.from)} to ${makePoint(refusal.to)}: pieces step to a neighbouring point, or tigers jump straight over one.`;
    case 'nothing-to-jump':
      return `There is no goat on ${makePoint(refusal.over)} to jump over.`;
    case 'must-place':
      return `Place a goat first: goats move only once all are placed (${refusal.inHand} still in hand).`;
    case 'nothing-to-place':
      return 'No goat is left in hand: move a goat instead.';
    case 'tigers-never-place':
      return 'Tigers are never placed: move a tiger.';
    case 'goats-never-jump':
      return 'Goats never jump: step to a neighbouring empty point.';
    case 'one-jump-per-turn':
      return 'Only one jump per turn.';
    case 'no-move-from':
      return `The piece on ${makePoint(refusal.at)} has no move now.`;
    case 'repeats':
      return refusal.ply === 0
        ? 'Not allowed: it would repeat the starting position (no position may repeat).'
        : `Not allowed: it would repeat the position after move ${refusal.ply} (no position may repeat).`;
    case 'illegal':
      return 'That move is not allowed.';
  }
}

/** A tap the board did not take: on `at`, with the piece on `from` selected (null: none). */
export interface BoardTap {
  readonly at: Point;
  readonly from: Point | null;
}

/** Why `by`'s tap is refused, in words; null for a watcher, with no game, or when it is allowed. */
export function tapRefusal(game: Game | null, by: Side | null, tap: BoardTap): string | null {
  if (!game || !by) return null;
  const refusal =
    tap.from === null ? explainTap(game, tap.at, by) : explainPoints(game, tap.from, tap.at, by);
  return refusal && refusalText(refusal);
}

/** Why `by`'s typed move is refused, in words; null when it may be sent. */
export function typedRefusal(game: Game | null, by: Side | null, text: string): string | null {
  if (!game || !by) return null;
  const refusal = explainMoveText(game, text, by);
  return refusal && refusalText(refusal);
}
