/**
 * Retrograde analysis of one tier of the sliding phase (FORMAT.md has the values' code).
 *
 * A value is 0 (a draw: no forced end) or distance + 1, where the distance is in plies to the end
 * of the game with best play — the winner fastest, the loser slowest — and its parity says who
 * wins: odd, the side to move; even, the other side (0: the side to move has no move, R15).
 *
 * The tier's own moves are steps; a capture leaves it for the tier above (already solved: its
 * values are looked up), or wins at once when it is the capture that ends the game (R14).
 * Positions are settled one distance at a time: at level d every position of distance d is swept
 * up and its predecessors (unmoves) learn of it — a win at d + 1 for a predecessor whose move
 * leads into a loss, one move fewer to refute for a predecessor whose move leads into a win, lost
 * at d + 1 when none is left. Captures into the tier above are known from the start: a capture into
 * a loss is a win waiting at its distance (unless a quicker win appears), a capture into a draw
 * makes losing impossible, captures into wins make a loss no quicker than the slowest of them.
 * Whatever is never settled is a draw: a cycle (R13 is not part of a position).
 */
import { ALL_POINTS_MASK } from '@bagh/rules';
import {
  ALQUERQUE,
  CHOOSE,
  colexRank,
  emptyRank,
  expand,
  FREE_POINTS,
  popcount,
  TIGER_SETS,
  TIGERS_AT,
  TierSpace,
} from './space.js';

export interface TierProgress {
  readonly phase: 'init' | 'level';
  /** Positions looked at so far in this tier (init: all of them once; level: the settled ones). */
  readonly done: number;
  readonly total: number;
  readonly level: number;
}

/**
 * Solves tier `tier`. `above` holds the solved values of tier `tier + 1`, or is null when a
 * capture in this tier wins the game (the real table's tier 4; a reduced rule set's last tier).
 */
export function solveTier(
  tier: number,
  above: Uint16Array | null,
  onProgress: (progress: TierProgress) => void = () => {},
): Uint16Array {
  const space = new TierSpace(tier);
  const upper = above === null ? null : new TierSpace(tier + 1);
  if (upper && above && above.length !== upper.positions)
    throw new RangeError('the tier above has the wrong size');
  const values = new Uint16Array(space.positions);
  const counts = new Uint8Array(space.positions);
  // Per board, for the tigers to move: a win waiting (odd distance + 1) or the slowest loss by a capture (even + 1).
  const pending = above === null ? null : new Uint16Array(space.boards);
  const { neighbours, jumpCount, jumpOver, jumpLand } = ALQUERQUE;
  const { emptySets, compressedAt } = space;
  const upperSets = upper?.emptySets ?? 0;
  let maxPending = 0;

  for (let tigerRank = 0; tigerRank < TIGER_SETS; tigerRank++) {
    const tigers = TIGERS_AT[tigerRank]!;
    for (let emptyIndex = 0; emptyIndex < emptySets; emptyIndex++) {
      const empty = expand(tigerRank, compressedAt[emptyIndex]!);
      const goats = ALL_POINTS_MASK & ~tigers & ~empty;
      const board = tigerRank * emptySets + emptyIndex;
      // Goats to move: their steps; none is a loss now (R15).
      let goatSteps = 0;
      for (let e = empty; e !== 0; e &= e - 1)
        goatSteps += popcount(neighbours[31 - Math.clz32(e & -e)]! & goats);
      if (goatSteps === 0) values[board * 2 + 1] = 1;
      else counts[board * 2 + 1] = goatSteps;
      // Tigers to move: steps, and captures.
      let steps = 0;
      let win = 0;
      let slowestLoss = 0;
      let draw = false;
      for (let t = tigers; t !== 0; t &= t - 1) {
        const low = t & -t;
        const from = 31 - Math.clz32(low);
        steps += popcount(neighbours[from]! & empty);
        for (let j = 0; j < jumpCount[from]!; j++) {
          const over = 1 << jumpOver[from * 8 + j]!;
          const land = 1 << jumpLand[from * 8 + j]!;
          if ((goats & over) === 0 || (empty & land) === 0) continue;
          if (above === null) {
            win = 1;
            continue;
          }
          const nextTigers = (tigers & ~low) | land;
          const nextEmpty = (empty & ~land) | low | over;
          const value =
            above[(colexRank(nextTigers) * upperSets + emptyRank(nextTigers, nextEmpty)) * 2 + 1]!;
          if (value === 0) draw = true;
          else if ((value - 1) % 2 === 0) {
            // The goats lose in value − 1: the capture wins in value.
            if (win === 0 || value < win) win = value;
          } else if (value > slowestLoss) slowestLoss = value;
        }
      }
      const index = board * 2;
      if (above === null && win !== 0) {
        values[index] = 2;
        continue;
      }
      if (win !== 0) {
        pending![board] = win + 1;
        maxPending = Math.max(maxPending, win);
        counts[index] = steps + 1;
      } else if (draw) counts[index] = steps + 1;
      else {
        counts[index] = steps;
        if (slowestLoss !== 0) {
          pending![board] = slowestLoss + 1;
          maxPending = Math.max(maxPending, slowestLoss);
        } else if (steps === 0) values[index] = 1;
      }
    }
    if ((tigerRank & 255) === 0)
      onProgress({ phase: 'init', done: tigerRank * emptySets * 2, total: space.positions, level: 0 });
  }

  let settled = 0;
  for (let level = 0; ; level++) {
    const code = level + 1;
    const next = code + 1;
    const moverWon = (level & 1) === 1;
    let found = 0;
    for (let index = 0; index < values.length; index++) {
      const value = values[index]!;
      if (value !== code) {
        if (value !== 0 || pending === null || (index & 1) !== 0 || pending[index >>> 1] !== code) continue;
        // A capture's result that nothing quicker (a win) or slower (a loss) has displaced.
        if (!moverWon && counts[index] !== 0) continue;
        values[index] = code;
      }
      found++;
      const board = index >>> 1;
      const tigerRank = Math.floor(board / emptySets);
      const tigers = TIGERS_AT[tigerRank]!;
      const empty = expand(tigerRank, compressedAt[board - tigerRank * emptySets]!);
      if ((index & 1) === 1) {
        // Goats to move here: the tigers stepped from an empty point to one of theirs.
        for (let t = tigers; t !== 0; t &= t - 1) {
          const to = t & -t;
          for (let f = neighbours[31 - Math.clz32(to)]! & empty; f !== 0; f &= f - 1) {
            const from = f & -f;
            const beforeTigers = (tigers & ~to) | from;
            const before =
              (colexRank(beforeTigers) * emptySets + emptyRank(beforeTigers, (empty & ~from) | to)) * 2;
            if (values[before] !== 0) continue;
            if (!moverWon) values[before] = next;
            else if (--counts[before]! === 0 && (pending === null || pending[before >>> 1]! <= next))
              values[before] = next;
          }
        }
      } else {
        // Tigers to move here: a goat stepped from an empty point to a point of its own.
        const goats = ALL_POINTS_MASK & ~tigers & ~empty;
        const base = tigerRank * emptySets;
        for (let f = empty; f !== 0; f &= f - 1) {
          const from = f & -f;
          for (let g = neighbours[31 - Math.clz32(from)]! & goats; g !== 0; g &= g - 1) {
            const before = (base + emptyRank(tigers, (empty & ~from) | (g & -g))) * 2 + 1;
            if (values[before] !== 0) continue;
            if (!moverWon || --counts[before]! === 0) values[before] = next;
          }
        }
      }
    }
    settled += found;
    onProgress({ phase: 'level', done: settled, total: space.positions, level });
    if (found === 0 && level >= maxPending) break;
  }
  return values;
}

/** Sizes for reports: the positions of every tier. */
export const tierPositions = (tier: number): number => TIGER_SETS * CHOOSE[FREE_POINTS]![tier + 1]! * 2;
