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
  colexRank,
  emptyRank,
  expand,
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

const spaces: TierSpace[] = [];
const spaceOf = (tier: number): TierSpace => {
  spaces[tier] ??= new TierSpace(tier);
  return spaces[tier];
};

/** A tier's working arrays; shared between worker threads when their buffers are SharedArrayBuffers. */
export interface TierWork {
  readonly tier: number;
  readonly values: Uint16Array;
  /** Moves not yet refuted, per position. */
  readonly counts: Uint8Array;
  /** Per board, for the tigers to move: a win waiting (odd distance + 1) or the slowest loss by a capture (even + 1). */
  readonly pending: Uint16Array | null;
  /** The solved tier above, or null when a capture here wins the game. */
  readonly above: Uint16Array | null;
}

/** The arrays for tier `tier` (in SharedArrayBuffers when `shared`). */
export function createTierWork(tier: number, above: Uint16Array | null, shared = false): TierWork {
  const space = new TierSpace(tier);
  if (above !== null && above.length !== new TierSpace(tier + 1).positions)
    throw new RangeError('the tier above has the wrong size');
  const buffer = (bytes: number) => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  return {
    tier,
    values: new Uint16Array(buffer(space.positions * 2)),
    counts: new Uint8Array(buffer(space.positions)),
    pending: above === null ? null : new Uint16Array(buffer(space.boards * 2)),
    above,
  };
}

/**
 * Solves tier `tier` in this thread. `above` holds the solved values of tier `tier + 1`, or is null
 * when a capture in this tier wins the game (the real table's tier 4; a reduced rule set's last tier).
 */
export function solveTier(
  tier: number,
  above: Uint16Array | null,
  onProgress: (progress: TierProgress) => void = () => {},
): Uint16Array {
  const work = createTierWork(tier, above);
  const space = new TierSpace(tier);
  let maxPending = 0;
  const step = 256;
  for (let from = 0; from < TIGER_SETS; from += step) {
    maxPending = Math.max(maxPending, initRange(work, from, Math.min(TIGER_SETS, from + step)));
    onProgress({ phase: 'init', done: from * space.emptySets * 2, total: space.positions, level: 0 });
  }
  let settled = 0;
  const chunk = 1 << 22;
  for (let level = 0; ; level++) {
    let found = 0;
    for (let from = 0; from < space.positions; from += chunk) {
      found += sweepRange(work, level, from, Math.min(space.positions, from + chunk));
      onProgress({ phase: 'level', done: settled + found, total: space.positions, level });
    }
    settled += found;
    if (found === 0 && level >= maxPending) break;
  }
  return work.values;
}

/**
 * The init pass over the boards of tiger ranks [from, to): counts every position's moves, settles
 * those with none, and records the captures' results. Returns the greatest distance waiting.
 */
export function initRange(work: TierWork, fromRank: number, toRank: number): number {
  const { values, counts, pending, above } = work;
  const space = spaceOf(work.tier);
  const upperSets = above === null ? 0 : spaceOf(work.tier + 1).emptySets;
  const { neighbours, jumpCount, jumpOver, jumpLand } = ALQUERQUE;
  const { emptySets, compressedAt } = space;
  let maxPending = 0;
  for (let tigerRank = fromRank; tigerRank < toRank; tigerRank++) {
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
  }
  return maxPending;
}

/**
 * Level `level` over positions [start, end): settles the captures' results due now, and tells the
 * predecessors of every position at distance `level`. Safe to run on disjoint ranges in several
 * threads at once over shared arrays: within a level every write is the same value (all wins or
 * all losses at level + 1, by parity), and move counts are decremented atomically.
 */
export function sweepRange(work: TierWork, level: number, start: number, end: number): number {
  const { values, counts, pending } = work;
  const space = spaceOf(work.tier);
  const { neighbours } = ALQUERQUE;
  const { emptySets, compressedAt } = space;
  const code = level + 1;
  const next = code + 1;
  const moverWon = (level & 1) === 1;
  const atomic = counts.buffer instanceof SharedArrayBuffer;
  let found = 0;
  for (let index = start; index < end; index++) {
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
          else if (
            (atomic ? Atomics.sub(counts, before, 1) : counts[before]!--) === 1 &&
            (pending === null || pending[before >>> 1]! <= next)
          )
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
          if (!moverWon || (atomic ? Atomics.sub(counts, before, 1) : counts[before]!--) === 1)
            values[before] = next;
        }
      }
    }
  }
  return found;
}
