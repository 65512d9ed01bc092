/**
 * Proof-number search of the R13 race in a table draw (issue 20): the same game as `RaceSearch`
 * (race.ts) — drawing moves only, a move into a table win wins, a side left with no unrepeated
 * drawing move loses — but best-first: it grows the tree where the fewest moves remain to be
 * answered (a side with one drawing move a turn is followed to the end of its line), so it proves
 * long forced races that a depth-limited search never reaches. Every race ends (R13), so each
 * node is proven won or lost for the side to move once its subtree is whole.
 * The tree is explicit (typed arrays, children contiguous); a node is a line from the root, since
 * a position's value depends on the line that reached it.
 */
import {
  type Game,
  historyOf,
  MAX_MOVES,
  type Move,
  type RepetitionTable,
  type SearchBoard,
} from '@bagh/rules';
import type { BoardProbe } from './probe.js';
import { DRAW, LOST, moveOutcome, raceBoard, WON } from './race.js';

const INF = 1 << 30;

export type ProofStatus = 'won' | 'lost' | 'open';
export interface ProofResult {
  /** The race for the side to move: won, lost, or not proven within the budget. */
  readonly status: ProofStatus;
  /** Each drawing move (legal under R13) with its race for the mover. */
  readonly moves: ReadonlyArray<{ readonly move: Move; readonly status: ProofStatus }>;
  readonly expansions: number;
}

export class RaceProver {
  private capacity = 0;
  private size = 0;
  private move: Int32Array<ArrayBuffer> = new Int32Array(0);
  private first: Int32Array<ArrayBuffer> = new Int32Array(0);
  private count: Int32Array<ArrayBuffer> = new Int32Array(0);
  /** Proof and disproof numbers of "the side to move at the root wins". */
  private pn: Int32Array<ArrayBuffer> = new Int32Array(0);
  private dn: Int32Array<ArrayBuffer> = new Int32Array(0);
  private readonly buffer = new Int32Array(MAX_MOVES);
  /** The nodes from the root down to the current node's parent (the board is on the current node). */
  private readonly path: number[] = [];
  private current = 0;
  private currentRootSide = true;
  /** The move into a table win that ended the latest expansion to find one. */
  private winning = 0;

  /** Plies walked down the tree by all steps so far (a measure of the prover's work beside expansions). */
  walked = 0;

  /** `fromRoot`: every step starts at the root (the same expansions, more plies walked; for tests). */
  constructor(
    private readonly probe: BoardProbe,
    private readonly winCaptures = 5,
    private readonly fromRoot = false,
  ) {}

  /**
   * The race from a position the table calls a draw, within `maxExpansions` expanded nodes (each
   * probes every move of its position, as a node of `RaceSearch`) and `timeMs`; null where
   * `RaceSearch` has no race (not a table draw, or no drawing move). `stopped` ends it early too.
   */
  prove(
    game: Game,
    maxExpansions: number,
    timeMs = Number.POSITIVE_INFINITY,
    stopped: () => boolean = () => false,
  ): ProofResult | null {
    const board = raceBoard(game, this.probe);
    if (board === null) return null;
    const history = historyOf(game).clone();
    // generateMoves lists Bagh Chal's moves in generatePacked's order, one for one (no multi-jumps).
    const objects = board.generateMoves();
    const packed = new Int32Array(MAX_MOVES);
    board.generatePacked(packed, 0);
    const moveOf = (m: number): Move => objects[packed.indexOf(m)]!;
    this.size = 1;
    this.path.length = 0;
    this.current = 0;
    this.currentRootSide = true;
    this.allocate(1);
    this.init(0);
    this.expand(0, board, history, true);
    if (this.count[0] === 0) {
      // Solved at once: a move into a table win (the first such), or no drawing move (no race).
      if (this.pn[0] !== 0) return null;
      return { status: 'won', moves: [{ move: moveOf(this.winning), status: 'won' }], expansions: 0 };
    }
    const deadline = performance.now() + timeMs;
    let expansions = 0;
    while (this.pn[0] !== 0 && this.dn[0] !== 0 && expansions < maxExpansions) {
      if ((expansions & 255) === 0 && (performance.now() >= deadline || stopped())) break;
      this.grow(board, history);
      expansions++;
    }
    const status = (node: number): ProofStatus =>
      this.pn[node] === 0 ? 'won' : this.dn[node] === 0 ? 'lost' : 'open';
    const children = Array.from({ length: this.count[0]! }, (_, i) => this.first[0]! + i);
    return {
      status: status(0),
      // A child's numbers are the root mover's: proven (pn 0) is a move that wins.
      moves: children.map((c) => ({ move: moveOf(this.move[c]!), status: status(c) })),
      expansions,
    };
  }

  /**
   * One step: down to the most-proving node from the current node, expand it, and back up updating
   * the numbers only as far as they change (Allis's current-node enhancement): where a node's numbers
   * stay the same, so do its ancestors', and the next most-proving node is in its subtree, so the
   * next step starts there (the board stays on it). The same nodes are expanded in the same order as
   * from the root each time.
   */
  private grow(board: SearchBoard, history: RepetitionTable): void {
    const path = this.path;
    let node = this.current;
    let rootSide = this.currentRootSide;
    while (this.count[node]! > 0) {
      path.push(node);
      const from = this.first[node]!;
      const to = from + this.count[node]!;
      let best = from;
      // The root's side needs one proven child (least pn); the other side's, one disproven (least dn).
      const numbers = rootSide ? this.pn : this.dn;
      for (let c = from + 1; c < to; c++) if (numbers[c]! < numbers[best]!) best = c;
      node = best;
      board.makePacked(this.move[node]!);
      board.record(history);
      rootSide = !rootSide;
      this.walked++;
    }
    this.expand(node, board, history, rootSide);
    while (path.length > 0) {
      const parent = path[path.length - 1]!;
      const pn = this.pn[parent]!;
      const dn = this.dn[parent]!;
      board.unrecord(history);
      board.unmakePacked(this.move[node]!);
      rootSide = !rootSide;
      path.pop();
      node = parent;
      this.update(node, rootSide);
      if (!this.fromRoot && this.pn[node] === pn && this.dn[node] === dn) break;
    }
    this.current = node;
    this.currentRootSide = rootSide;
  }

  /** The leaf's drawing moves become its children (a move into a table win, or none, ends it). */
  private expand(node: number, board: SearchBoard, history: RepetitionTable, rootSide: boolean): void {
    const moves = this.buffer;
    const n = board.generatePacked(moves, 0);
    let draws = 0;
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      board.makePacked(m);
      const outcome = board.repeats(history) ? LOST : moveOutcome(board, this.probe, this.winCaptures);
      board.unmakePacked(m);
      if (outcome === WON) {
        this.winning = m;
        this.solve(node, rootSide);
        return;
      }
      if (outcome === DRAW) moves[draws++] = m;
    }
    if (draws === 0) {
      this.solve(node, !rootSide);
      return;
    }
    this.allocate(this.size + draws);
    this.first[node] = this.size;
    this.count[node] = draws;
    for (let i = 0; i < draws; i++) {
      this.move[this.size] = moves[i]!;
      this.init(this.size++);
    }
    this.update(node, rootSide);
  }

  /** `node` won by the root's side (`rootWins`) or lost. */
  private solve(node: number, rootWins: boolean): void {
    this.pn[node] = rootWins ? 0 : INF;
    this.dn[node] = rootWins ? INF : 0;
  }

  private init(node: number): void {
    this.first[node] = 0;
    this.count[node] = 0;
    this.pn[node] = 1;
    this.dn[node] = 1;
  }

  /** An expanded node's numbers from its children's: at the root's side, least pn and summed dn. */
  private update(node: number, rootSide: boolean): void {
    const from = this.first[node]!;
    const to = from + this.count[node]!;
    const [least, summed] = rootSide ? [this.pn, this.dn] : [this.dn, this.pn];
    let min = INF;
    let sum = 0;
    for (let c = from; c < to; c++) {
      if (least[c]! < min) min = least[c]!;
      sum = Math.min(INF, sum + summed[c]!);
    }
    least[node] = min;
    summed[node] = sum;
  }

  private allocate(needed: number): void {
    if (needed <= this.capacity) return;
    const capacity = Math.max(needed, this.capacity * 2, 1024);
    const grow = (old: Int32Array): Int32Array<ArrayBuffer> => {
      const next = new Int32Array(capacity);
      next.set(old.subarray(0, this.size));
      return next;
    };
    this.move = grow(this.move);
    this.first = grow(this.first);
    this.count = grow(this.count);
    this.pn = grow(this.pn);
    this.dn = grow(this.dn);
    this.capacity = capacity;
  }
}
