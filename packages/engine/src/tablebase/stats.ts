/**
 * What a solved tier holds: wins for each side and draws per side to move, the longest forced
 * win for each side, and the tier's size up to the board's 8 symmetries (Burnside's lemma).
 */
import { makePosition, POINT_COUNT, type Position, pointAt, pointColumn, pointRow } from '@bagh/rules';
import { CHOOSE, FREE_POINTS, TIGER_SETS, TIGERS_AT, TierSpace } from './space.js';

export interface SideCounts {
  readonly tigerWins: number;
  readonly goatWins: number;
  readonly draws: number;
}

export interface LongestWin {
  readonly plies: number;
  readonly position: string;
}

export interface TierStats {
  readonly tier: number;
  readonly positions: number;
  /** Positions up to the board's symmetries (rotations and reflections). */
  readonly positionsUpToSymmetry: number;
  readonly tigersToMove: SideCounts;
  readonly goatsToMove: SideCounts;
  readonly longestTigerWin: LongestWin | null;
  readonly longestGoatWin: LongestWin | null;
}

/** The Position of index `index` in tier `tier`. */
export function positionAt(tier: number, index: number, space: TierSpace = new TierSpace(tier)): Position {
  const board = Math.floor(index / 2);
  const goatMask = space.goatsOf(board);
  return {
    tigers: space.tigersOf(board),
    goats: Array.from({ length: POINT_COUNT }, (_, p) => (goatMask >>> p) & 1),
    toMove: index % 2 === 1 ? 'goat' : 'tiger',
    goatsInHand: 0,
    goatsCaptured: tier,
  };
}

export function tierStats(tier: number, values: Uint16Array): TierStats {
  const space = new TierSpace(tier);
  // [side][0 tiger wins, 1 goat wins, 2 draws]
  const counts = [
    [0, 0, 0],
    [0, 0, 0],
  ];
  const longest = [
    { plies: -1, index: -1 },
    { plies: -1, index: -1 },
  ];
  for (let index = 0; index < values.length; index++) {
    const value = values[index]!;
    const side = index & 1;
    if (value === 0) {
      counts[side]![2]!++;
      continue;
    }
    const plies = value - 1;
    // Odd: the side to move wins. Side 0: tigers to move.
    const tigerWins = (plies & 1) === 1 ? side === 0 : side === 1;
    const winner = tigerWins ? 0 : 1;
    counts[side]![winner]!++;
    if (plies > longest[winner]!.plies) longest[winner] = { plies, index };
  }
  const sideCounts = (side: number): SideCounts => ({
    tigerWins: counts[side]![0]!,
    goatWins: counts[side]![1]!,
    draws: counts[side]![2]!,
  });
  const win = (w: { plies: number; index: number }): LongestWin | null =>
    w.index < 0 ? null : { plies: w.plies, position: makePosition(positionAt(tier, w.index, space)) };
  return {
    tier,
    positions: values.length,
    positionsUpToSymmetry: boardsUpToSymmetry(tier) * 2,
    tigersToMove: sideCounts(0),
    goatsToMove: sideCounts(1),
    longestTigerWin: win(longest[0]!),
    longestGoatWin: win(longest[1]!),
  };
}

/** The 8 symmetries of the square board as point maps. */
export const SYMMETRIES: readonly Int32Array[] = (() => {
  const maps: Int32Array[] = [];
  const transforms: ((c: number, r: number) => [number, number])[] = [
    (c, r) => [c, r],
    (c, r) => [4 - r, c],
    (c, r) => [4 - c, 4 - r],
    (c, r) => [r, 4 - c],
    (c, r) => [4 - c, r],
    (c, r) => [c, 4 - r],
    (c, r) => [r, c],
    (c, r) => [4 - r, 4 - c],
  ];
  for (const transform of transforms) {
    const map = new Int32Array(POINT_COUNT);
    for (let p = 0; p < POINT_COUNT; p++) {
      const [c, r] = transform(pointColumn(p), pointRow(p));
      map[p] = pointAt(c, r);
    }
    maps.push(map);
  }
  return maps;
})();

export function applySymmetry(map: Int32Array, mask: number): number {
  let out = 0;
  for (let m = mask; m !== 0; m &= m - 1) out |= 1 << map[31 - Math.clz32(m & -m)]!;
  return out;
}

/** Boards of a tier up to symmetry: the average number of boards each symmetry fixes (Burnside). */
export function boardsUpToSymmetry(tier: number): number {
  const empties = tier + 1;
  let fixed = TIGER_SETS * CHOOSE[FREE_POINTS]![empties]!; // the identity fixes every board
  for (const map of SYMMETRIES.slice(1)) {
    for (let rank = 0; rank < TIGER_SETS; rank++) {
      const tigers = TIGERS_AT[rank]!;
      if (applySymmetry(map, tigers) !== tigers) continue;
      // Empty sets fixed by the symmetry: unions of its cycles among the free points.
      const cycles: number[] = [];
      let seen = tigers;
      for (let p = 0; p < POINT_COUNT; p++) {
        if ((seen >>> p) & 1) continue;
        let cycle = 0;
        for (let q = p; ((cycle >>> q) & 1) === 0; q = map[q]!) cycle |= 1 << q;
        seen |= cycle;
        cycles.push(cycle);
      }
      fixed += subsetSums(cycles.map(popcount1), empties);
    }
  }
  return fixed / SYMMETRIES.length;
}

function popcount1(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
}

/** How many sub-multisets of `sizes` (by position) sum to `target`. */
function subsetSums(sizes: number[], target: number): number {
  const ways = new Array<number>(target + 1).fill(0);
  ways[0] = 1;
  for (const size of sizes) for (let t = target; t >= size; t--) ways[t]! += ways[t - size]!;
  return ways[target]!;
}
