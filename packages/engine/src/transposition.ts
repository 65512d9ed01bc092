/**
 * The search's transposition table: a fixed number of slots in typed arrays, indexed by the low
 * bits of the rules' 32-bit position hash and checked against the whole hash. Storing allocates
 * nothing (a Map of entry objects cost a quarter of the search's time and grew with every node).
 * A slot keeps the deeper result of the current search; results of earlier searches give way.
 *
 * Under the no-repeat rule (R13) a score holds only for the game history it was searched with:
 * `newEpoch()` retires every stored score at once (the best moves still order the search), and a
 * `MOVE_ONLY` entry keeps a move whose score depended on the line that led to it.
 */
export const EXACT = 0;
export const LOWER = 1;
export const UPPER = 2;
/** No score to answer with, only a best move for ordering. */
export const MOVE_ONLY = 3;
export type Bound = typeof EXACT | typeof LOWER | typeof UPPER | typeof MOVE_ONLY;

const DEFAULT_BITS = 20;
const USED = 1;
const FLAG_SHIFT = 1;
const DEPTH_SHIFT = 3;
const GENERATION_SHIFT = 10;

export class TranspositionTable {
  private readonly mask: number;
  private readonly hashes: Int32Array;
  /** Scores may be fractional (the evaluation's last-captures term). */
  private readonly scores: Float64Array;
  private readonly bests: Int32Array;
  /** USED | flag << 1 | depth << 3 | generation << 10. */
  private readonly meta: Int32Array;
  /** The epoch each slot's score was stored in: only the current epoch's scores answer. */
  private readonly epochs: Int32Array;
  private generation = 0;
  private epoch = 0;

  constructor(bits: number = DEFAULT_BITS) {
    const size = 1 << bits;
    this.mask = size - 1;
    this.hashes = new Int32Array(size);
    this.scores = new Float64Array(size);
    this.bests = new Int32Array(size);
    this.meta = new Int32Array(size);
    this.epochs = new Int32Array(size);
  }

  /** The game's history changed: no stored score answers any more, the stored moves still order. */
  newEpoch(): void {
    this.epoch = (this.epoch + 1) | 0;
  }

  /** Whether the slot's score may answer a probe (its bound, depth and window still to check). */
  hasScore(slot: number): boolean {
    return this.epochs[slot] === this.epoch && this.flag(slot) !== MOVE_ONLY;
  }

  /** A new search: what earlier searches stored still answers probes but may be overwritten. */
  nextSearch(): void {
    this.generation = (this.generation + 1) & 0xff;
  }

  /** Forgets everything (the scores were made with other weights or on another board). */
  clear(): void {
    this.meta.fill(0);
  }

  /** The slot holding this position, or -1. */
  probe(hash: number): number {
    const slot = hash & this.mask;
    return (this.meta[slot]! & USED) !== 0 && this.hashes[slot] === hash ? slot : -1;
  }

  depth(slot: number): number {
    return (this.meta[slot]! >>> DEPTH_SHIFT) & 0x7f;
  }

  flag(slot: number): Bound {
    return ((this.meta[slot]! >>> FLAG_SHIFT) & 3) as Bound;
  }

  score(slot: number): number {
    return this.scores[slot]!;
  }

  best(slot: number): number {
    return this.bests[slot]!;
  }

  store(hash: number, depth: number, flag: Bound, score: number, best: number): void {
    const slot = hash & this.mask;
    const meta = this.meta[slot]!;
    const keep =
      (meta & USED) !== 0 &&
      this.hashes[slot] !== hash &&
      meta >>> GENERATION_SHIFT === this.generation &&
      ((meta >>> DEPTH_SHIFT) & 0x7f) > depth;
    if (keep) return;
    this.hashes[slot] = hash;
    this.scores[slot] = score;
    this.bests[slot] = best;
    this.epochs[slot] = this.epoch;
    this.meta[slot] =
      USED |
      (flag << FLAG_SHIFT) |
      (Math.min(depth, 0x7f) << DEPTH_SHIFT) |
      (this.generation << GENERATION_SHIFT);
  }
}
