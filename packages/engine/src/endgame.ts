/**
 * Endgame tables for Bagh Chal's movement phase on a crowded board: with every goat placed and
 * k taken, k + 1 points are empty, and a position is just the four tigers, the empty points and
 * the side to move (with none taken: 12,650 × 21 × 2 positions). Solved backwards for the two
 * goals that leave a table: the tigers' next capture, or the goats trapping the tigers (R15).
 * Neither is a fortress. The no-repeat rule (R13) is ignored: it depends on the game's history,
 * not on the position, and in a forced line the winner never needs to repeat.
 */
import {
  ALL_POINTS_MASK,
  GEOMETRIES,
  type Geometry,
  lowestPoint,
  POINT_COUNT,
  popcount,
  type SearchBoard,
} from '@bagh/rules';

/** Tigers force a capture in `n` plies: `n`; goats trap the tigers in `n` plies: `-n`; neither: 0. */
export type EndgameValue = number;

const TIGERS = 4;
/** Binomial coefficients C(n, k) for n ≤ 25, k ≤ 4: the combinatorial number system's ranks. */
const CHOOSE = Array.from({ length: POINT_COUNT + 1 }, (_, n) =>
  Array.from({ length: TIGERS + 1 }, (_, k) => binomial(n, k)),
);

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return k > n ? 0 : Math.round(result);
}

/** The rank of a set of k points among all sets of k points, 0 … C(25,k) − 1. */
function rankOf(points: number): number {
  let rank = 0;
  let i = 1;
  for (let p = points; p !== 0; p &= p - 1) rank += CHOOSE[lowestPoint(p)]![i++]!;
  return rank;
}

/** Every set of `count` points within `within`, as masks. */
function everySet(count: number, within: number): number[] {
  const sets: number[] = [];
  const pick = (from: number, left: number, mask: number): void => {
    if (left === 0) {
      sets.push(mask);
      return;
    }
    for (let p = from; p < POINT_COUNT; p++) if ((within >>> p) & 1) pick(p + 1, left - 1, mask | (1 << p));
  };
  pick(0, count, 0);
  return sets;
}

export class EndgameTable {
  /** Tigers' view: > 0 they force a capture in that many plies, < 0 they are trapped, 0 neither. */
  private readonly values: Int16Array;
  private readonly emptySets: number;
  private readonly goats: number;

  constructor(
    private readonly geometry: Geometry,
    private readonly emptyCount: number,
  ) {
    this.emptySets = CHOOSE[POINT_COUNT]![emptyCount]!;
    this.goats = POINT_COUNT - TIGERS - emptyCount;
    this.values = new Int16Array(CHOOSE[POINT_COUNT]![TIGERS]! * this.emptySets * 2);
    this.solve();
  }

  /** The value of a Bagh Chal position in this table (no goat in hand, the table's goats on the board). */
  valueOf(board: SearchBoard): EndgameValue | undefined {
    // A set-up position may hold fewer tigers: then it has more empty points than the table.
    const empty = board.emptyMask;
    if (board.goatsInHand !== 0 || board.goatsOnBoard !== this.goats || popcount(empty) !== this.emptyCount)
      return undefined;
    return this.probe(board.tigers, empty, board.goatToMove);
  }

  /** The value of the position with these four tigers and these empty points. */
  probe(tigers: number, empty: number, goatToMove: boolean): EndgameValue {
    return this.values[this.index(tigers, empty, goatToMove)]!;
  }

  private index(tigers: number, empty: number, goatToMove: boolean): number {
    return (rankOf(tigers) * this.emptySets + rankOf(empty)) * 2 + (goatToMove ? 1 : 0);
  }

  /**
   * Retrograde analysis: positions decided on the spot first, then, one ply further back each
   * round, every position that can move into a win, or whose every move leads into a loss.
   * Distances are exact: the fastest win, the slowest loss.
   */
  private solve(): void {
    const { values } = this;
    const tigerAt = new Int32Array(CHOOSE[POINT_COUNT]![TIGERS]!);
    for (const tigers of everySet(TIGERS, ALL_POINTS_MASK)) tigerAt[rankOf(tigers)] = tigers;
    const emptyAt = new Int32Array(this.emptySets);
    for (const empty of everySet(this.emptyCount, ALL_POINTS_MASK)) emptyAt[rankOf(empty)] = empty;
    const movesLeft = new Uint8Array(values.length);
    for (const tigers of tigerAt) {
      for (const empty of everySet(this.emptyCount, ALL_POINTS_MASK & ~tigers)) {
        const tigersToMove = this.index(tigers, empty, false);
        const steps = this.tigerSteps(tigers, empty);
        // A capture leaves the table: the tigers' goal. No move at all loses (R15).
        if (this.canCapture(tigers, empty)) values[tigersToMove] = 1;
        else if (steps === 0) values[tigersToMove] = -1;
        else movesLeft[tigersToMove] = steps;
        const goatSteps = this.goatSteps(tigers, empty);
        if (goatSteps === 0) values[tigersToMove + 1] = 1;
        else movesLeft[tigersToMove + 1] = goatSteps;
      }
    }
    const { neighbours } = this.geometry;
    for (let distance = 1, found = true; found; distance++) {
      found = false;
      for (let index = 0; index < values.length; index++) {
        const value = values[index]!;
        if (value !== distance && value !== -distance) continue;
        found = true;
        const next = value > 0 ? distance + 1 : -(distance + 1);
        const pair = index >>> 1;
        const tigers = tigerAt[Math.floor(pair / this.emptySets)]!;
        const empty = emptyAt[pair % this.emptySets]!;
        if (index & 1) {
          // The tigers just stepped from an empty point `from` to `to`.
          for (let t = tigers; t !== 0; t &= t - 1) {
            const to = t & -t;
            for (let f = neighbours[31 - Math.clz32(to)]! & empty; f !== 0; f &= f - 1) {
              const from = f & -f;
              const before = this.index((tigers & ~to) | from, (empty & ~from) | to, false);
              this.resolve(before, value > 0, next, movesLeft);
            }
          }
        } else {
          // The goats just stepped from an empty point to one of theirs.
          const goats = ALL_POINTS_MASK & ~tigers & ~empty;
          for (let f = empty; f !== 0; f &= f - 1) {
            const from = f & -f;
            for (let g = neighbours[31 - Math.clz32(from)]! & goats; g !== 0; g &= g - 1) {
              const before = this.index(tigers, (empty & ~from) | (g & -g), true);
              this.resolve(before, value < 0, next, movesLeft);
            }
          }
        }
      }
    }
  }

  /** A move from `before` reaches a decided position: a win for its mover, or one move fewer left. */
  private resolve(before: number, moverWins: boolean, value: number, movesLeft: Uint8Array): void {
    if (this.values[before] !== 0) return;
    if (moverWins || --movesLeft[before]! === 0) this.values[before] = value;
  }

  private canCapture(tigers: number, empty: number): boolean {
    const { jumpCount, jumpOver, jumpLand } = this.geometry;
    const goats = ALL_POINTS_MASK & ~tigers & ~empty;
    for (let t = tigers; t !== 0; t &= t - 1) {
      const from = lowestPoint(t);
      for (let i = 0; i < jumpCount[from]!; i++) {
        if (((goats >>> jumpOver[from * 8 + i]!) & (empty >>> jumpLand[from * 8 + i]!) & 1) !== 0)
          return true;
      }
    }
    return false;
  }

  private tigerSteps(tigers: number, empty: number): number {
    let steps = 0;
    for (let t = tigers; t !== 0; t &= t - 1)
      steps += popcount(this.geometry.neighbours[lowestPoint(t)]! & empty);
    return steps;
  }

  private goatSteps(tigers: number, empty: number): number {
    const goats = ALL_POINTS_MASK & ~tigers & ~empty;
    let steps = 0;
    for (let e = empty; e !== 0; e &= e - 1)
      steps += popcount(this.geometry.neighbours[lowestPoint(e)]! & goats);
    return steps;
  }
}

let baghChalTable: EndgameTable | undefined;

/** Bagh Chal's table for all 20 goats on the board, solved on first use (about 0.2 s), then shared. */
export function baghChalEndgame(): EndgameTable {
  baghChalTable ??= new EndgameTable(GEOMETRIES.alquerque, 1);
  return baghChalTable;
}
