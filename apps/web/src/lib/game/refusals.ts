/**
 * Why the rules refuse a move, in words: the one place that turns @bagh/rules' typed refusals
 * into the page's language (messages/*.json, refusal_*), and the board's and the move box's
 * questions put to the rules.
 */
import {
  explainMoveText,
  explainPoints,
  explainTap,
  type Game,
  makeMove,
  makePoint,
  opposite,
  type Point,
  type Refusal,
  type Side,
} from '@bagh/rules';
import { m } from '../../paraglide/messages.js';
import { digits } from '../i18n/i18n.svelte.js';

const at = (point: Point): { point: string } => ({ point: makePoint(point) });

/**
 * A refusal as told to the player. R13's names the earlier move as the move list shows it (its
 * row, its side and its text), not a bare ply count that the list never shows.
 */
export type Why =
  | Exclude<Refusal, { kind: 'repeats' }>
  | { readonly kind: 'repeats'; readonly ply: 0 }
  | { readonly kind: 'repeats'; readonly ply: number; readonly by: Side; readonly move: string };

/** `refusal` with, for R13, the move of `game` after which the position occurred. */
export function told(game: Game, refusal: Refusal): Why {
  if (refusal.kind !== 'repeats') return refusal;
  if (refusal.ply === 0) return { kind: 'repeats', ply: 0 };
  const move = game.moves[refusal.ply - 1];
  if (!move) return { kind: 'illegal' };
  // Sides alternate every ply: odd plies are the first mover's.
  const first = game.start.toMove;
  return {
    kind: 'repeats',
    ply: refusal.ply,
    by: refusal.ply % 2 === 1 ? first : opposite(first),
    move: makeMove(move),
  };
}

export function refusalText(refusal: Why): string {
  switch (refusal.kind) {
    case 'game-over':
      return m.error_game_over();
    case 'bad-format':
      return m.refusal_bad_format();
    case 'not-your-turn':
      return refusal.toMove === 'tiger' ? m.refusal_not_your_turn_tigers() : m.refusal_not_your_turn_goats();
    case 'no-piece':
      return refusal.side === 'tiger'
        ? m.refusal_no_tiger(at(refusal.at))
        : m.refusal_no_goat(at(refusal.at));
    case 'occupied':
      return m.refusal_occupied(at(refusal.at));
    case 'not-a-line':
      return m.refusal_not_a_line({ from: makePoint(refusal.from), to: makePoint(refusal.to) });
    case 'nothing-to-jump':
      return m.refusal_nothing_to_jump(at(refusal.over));
    case 'must-place':
      return m.refusal_must_place({ count: digits(String(refusal.inHand)) });
    case 'nothing-to-place':
      return m.refusal_nothing_to_place();
    case 'tigers-never-place':
      return m.refusal_tigers_never_place();
    case 'goats-never-jump':
      return m.refusal_goats_never_jump();
    case 'one-jump-per-turn':
      return m.refusal_one_jump();
    case 'no-move-from':
      return m.refusal_no_move_from(at(refusal.at));
    case 'repeats':
      return 'move' in refusal ? repeatsText(refusal) : m.refusal_repeats_start();
    case 'illegal':
      return m.error_illegal_move();
  }
}

function repeatsText(refusal: { ply: number; by: Side; move: string }): string {
  // The move list's row: two plies to a move.
  const named = { n: digits(String(Math.ceil(refusal.ply / 2))), move: refusal.move };
  return refusal.by === 'tiger' ? m.refusal_repeats_tigers(named) : m.refusal_repeats_goats(named);
}

/** A tap the board did not take: on `at`, with the piece on `from` selected (null: none). */
export interface BoardTap {
  readonly at: Point;
  readonly from: Point | null;
}

/** Why `by`'s tap is refused; null for a watcher, with no game, or when it is allowed. */
export function tapRefused(game: Game | null, by: Side | null, tap: BoardTap): Why | null {
  if (!game || !by) return null;
  const refusal =
    tap.from === null ? explainTap(game, tap.at, by) : explainPoints(game, tap.from, tap.at, by);
  return refusal && told(game, refusal);
}

/** Why `by`'s tap is refused, in words; null for a watcher, with no game, or when it is allowed. */
export function tapRefusal(game: Game | null, by: Side | null, tap: BoardTap): string | null {
  const refusal = tapRefused(game, by, tap);
  return refusal && refusalText(refusal);
}

/** Why `by`'s typed move is refused, in words; null when it may be sent. */
export function typedRefusal(game: Game | null, by: Side | null, text: string): string | null {
  if (!game || !by) return null;
  const refusal = explainMoveText(game, text, by);
  return refusal && refusalText(told(game, refusal));
}
