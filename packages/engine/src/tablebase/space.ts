/**
 * The index space of Bagh Chal's sliding phase (FORMAT.md): every goat placed, `tier` goats
 * captured (0–4), four tigers. A board is its tiger set, ranked among the C(25,4) = 12,650 sets of
 * four points, and its empty set (tier + 1 points), ranked among the subsets of the 21 points the
 * tigers leave free; the goats are the rest. Both ranks are colex ranks (the combinatorial number
 * system), so the index is perfect: every number below the tier's size is one board, and back.
 */
import { ALL_POINTS_MASK, GEOMETRIES, POINT_COUNT } from '@bagh/rules';

export const TIGER_COUNT = 4;
export const GOAT_COUNT = 20;
/** The points the four tigers leave free. */
export const FREE_POINTS = POINT_COUNT - TIGER_COUNT;
/** Captures 0 … 4: the tigers win at the fifth (R14). */
export const TIER_COUNT = 5;

/** C(n, k) for n ≤ 25, k ≤ 6. */
export const CHOOSE: readonly (readonly number[])[] = Array.from({ length: POINT_COUNT + 1 }, (_, n) =>
  Array.from({ length: 7 }, (_, k) => binomial(n, k)),
);

function binomial(n: number, k: number): number {
  if (k > n) return 0;
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return Math.round(result);
}

export const TIGER_SETS = CHOOSE[POINT_COUNT]![TIGER_COUNT]!;

/** The tiger set of each rank. */
export const TIGERS_AT: Int32Array = (() => {
  const at = new Int32Array(TIGER_SETS);
  for (const set of everySet(TIGER_COUNT, POINT_COUNT)) at[colexRank(set)] = set;
  return at;
})();

/** FREE_AT[rank * 21 + j]: the j-th point (in ascending order) that the tigers of `rank` leave free. */
export const FREE_AT: Uint8Array = (() => {
  const at = new Uint8Array(TIGER_SETS * FREE_POINTS);
  for (let rank = 0; rank < TIGER_SETS; rank++) {
    let j = 0;
    for (let p = 0; p < POINT_COUNT; p++)
      if (((TIGERS_AT[rank]! >>> p) & 1) === 0) at[rank * FREE_POINTS + j++] = p;
  }
  return at;
})();

/** Every set of `count` points among 0 … n − 1, as masks, in colex rank order. */
export function everySet(count: number, n: number): number[] {
  const sets: number[] = [];
  // Colex order: by the largest point, then by the rest in colex order.
  const gather = (k: number, limit: number, mask: number): void => {
    if (k === 0) {
      sets.push(mask);
      return;
    }
    for (let top = k - 1; top < limit; top++) gather(k - 1, top, mask | (1 << top));
  };
  gather(count, n, 0);
  return sets;
}

/** The colex rank of a set of points: the sum of C(p_i, i) over its points p_1 < p_2 < … */
export function colexRank(set: number): number {
  let rank = 0;
  let i = 1;
  for (let s = set; s !== 0; s &= s - 1) rank += CHOOSE[31 - Math.clz32(s & -s)]![i++]!;
  return rank;
}

export function popcount(mask: number): number {
  let m = mask - ((mask >>> 1) & 0x55555555);
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return (((m + (m >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** One tier: its sizes and its board ⇄ index maps. Position index = board index × 2 + (goats to move ? 1 : 0). */
export class TierSpace {
  readonly empties: number;
  /** C(21, empties): empty sets per tiger set. */
  readonly emptySets: number;
  readonly boards: number;
  readonly positions: number;
  /** The empty sets as subsets of the 21 free points (bit j: the j-th free point), by rank. */
  readonly compressedAt: Int32Array;

  constructor(readonly tier: number) {
    if (!Number.isInteger(tier) || tier < 0 || tier >= TIER_COUNT) throw new RangeError(`no tier ${tier}`);
    this.empties = tier + 1;
    this.emptySets = CHOOSE[FREE_POINTS]![this.empties]!;
    this.boards = TIGER_SETS * this.emptySets;
    this.positions = this.boards * 2;
    this.compressedAt = Int32Array.from(everySet(this.empties, FREE_POINTS));
  }

  /** The board index of four tigers and `tier + 1` empty points (masks over the 25 points). */
  boardIndex(tigers: number, empty: number): number {
    return colexRank(tigers) * this.emptySets + emptyRank(tigers, empty);
  }

  tigersOf(board: number): number {
    return TIGERS_AT[Math.floor(board / this.emptySets)]!;
  }

  emptyOf(board: number): number {
    const tigerRank = Math.floor(board / this.emptySets);
    return expand(tigerRank, this.compressedAt[board - tigerRank * this.emptySets]!);
  }

  goatsOf(board: number): number {
    return ALL_POINTS_MASK & ~this.tigersOf(board) & ~this.emptyOf(board);
  }
}

/** The rank of `empty` among the subsets of the points `tigers` leave free. */
export function emptyRank(tigers: number, empty: number): number {
  let rank = 0;
  let i = 1;
  for (let e = empty; e !== 0; e &= e - 1) {
    const low = e & -e;
    const p = 31 - Math.clz32(low);
    rank += CHOOSE[p - popcount(tigers & (low - 1))]![i++]!;
  }
  return rank;
}

/** A subset of the free points of tiger set `tigerRank` as a mask over the 25 points. */
export function expand(tigerRank: number, compressed: number): number {
  let mask = 0;
  const base = tigerRank * FREE_POINTS;
  for (let c = compressed; c !== 0; c &= c - 1) mask |= 1 << FREE_AT[base + 31 - Math.clz32(c & -c)]!;
  return mask;
}

export const ALQUERQUE = GEOMETRIES.alquerque;
