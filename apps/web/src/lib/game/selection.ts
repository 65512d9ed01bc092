/**
 * Tap-by-tap move input over a list of legal moves handed in from outside (like chessground's
 * dests): the board never decides legality, it only matches taps against the moves it was given.
 */
import type { Move, Point } from '@bagh/rules';

/** The points a move visits after its origin: [to] for place/step, the landings for a jump. */
export function moveTrail(move: Move): readonly Point[] {
  return move.kind === 'jump' ? move.path : [move.to];
}

export const moveOrigin = (move: Move): Point | undefined => (move.kind === 'place' ? undefined : move.from);

/** Input in progress: the origin and the landings chosen so far (multi-jump). */
export interface Selection {
  readonly from: Point;
  readonly trail: readonly Point[];
}

/** Moves still possible given a selection. */
export function candidates(moves: readonly Move[], sel: Selection): Move[] {
  return moves.filter((m) => {
    if (moveOrigin(m) !== sel.from) return false;
    const trail = moveTrail(m);
    return trail.length >= sel.trail.length && sel.trail.every((p, i) => trail[i] === p);
  });
}

/** Points a tap may go to next (legal targets and jump landings). */
export function nextTargets(moves: readonly Move[], sel: Selection | null): Set<Point> {
  const out = new Set<Point>();
  if (!sel) return out;
  for (const m of candidates(moves, sel)) {
    const next = moveTrail(m)[sel.trail.length];
    if (next !== undefined) out.add(next);
  }
  return out;
}

/** The move that ends exactly at the selection, if any (a multi-jump may stop here). */
export function completeMove(moves: readonly Move[], sel: Selection): Move | undefined {
  return candidates(moves, sel).find((m) => moveTrail(m).length === sel.trail.length);
}

/** Points holding a piece that has at least one move. */
export function movablePoints(moves: readonly Move[]): Set<Point> {
  const out = new Set<Point>();
  for (const m of moves) {
    const from = moveOrigin(m);
    if (from !== undefined) out.add(from);
  }
  return out;
}

/** Points where a goat may be placed. */
export function placementPoints(moves: readonly Move[]): Set<Point> {
  const out = new Set<Point>();
  for (const m of moves) if (m.kind === 'place') out.add(m.to);
  return out;
}

export type TapResult =
  | { readonly kind: 'move'; readonly move: Move }
  | { readonly kind: 'select'; readonly selection: Selection | null };

/**
 * One tap on a point. Returns the move to send, or the new selection (null clears it).
 * - a placement point: the placement;
 * - a movable piece: select it (tap again to deselect);
 * - a next target: extend the selection, or finish the move when nothing longer continues;
 * - the last landing of a multi-jump in progress that could stop there: finish it.
 */
export function tap(moves: readonly Move[], sel: Selection | null, point: Point): TapResult {
  const place = moves.find((m) => m.kind === 'place' && m.to === point);
  if (place) return { kind: 'move', move: place };
  if (sel) {
    if (sel.trail.length > 0 && sel.trail[sel.trail.length - 1] === point) {
      const done = completeMove(moves, sel);
      if (done) return { kind: 'move', move: done };
    }
    if (nextTargets(moves, sel).has(point)) {
      const extended: Selection = { from: sel.from, trail: [...sel.trail, point] };
      const done = completeMove(moves, extended);
      const longer = nextTargets(moves, extended).size > 0;
      if (done && !longer) return { kind: 'move', move: done };
      return { kind: 'select', selection: extended };
    }
    if (point === sel.from) return { kind: 'select', selection: null };
  }
  if (movablePoints(moves).has(point)) return { kind: 'select', selection: { from: point, trail: [] } };
  return { kind: 'select', selection: null };
}
