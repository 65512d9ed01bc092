/**
 * Proof-number search of the R13 race in a table draw (issue 20): the same game as `RaceSearch`
 * (race.ts) — drawing moves only, a move into a table win wins, a side left with no unrepeated
 * drawing move loses — but best-first: it grows the tree where the fewest moves remain to be
 * answered (a side with one drawing move a turn is followed to the end of its line), so it proves
 * long forced races that a depth-limited search never reaches. Every race ends (R13), so each
 * node is proven won or lost for the side to move once its subtree is whole.
 * The tree is explicit (typed arrays, children contiguous); a node is a line from the root, since
 * a position's value depends on the line that reached it. Kept from a move to the same game's next
 * (`reuse`), its subtree for the two moves played is exactly the new root's: the same line.
 */
import {
  type Game,
  historyOf,
  MAX_MOVES,
  type Move,
  makePosition,
  type RepetitionTable,
  type SearchBoard,
  sameMove,
} from '@bagh/rules';
import type { BoardProbe } from './probe.js';
import { DRAW, LOST, moveOutcome, raceBoard, WON } from './race.js';

const INF = 1 << 30;

/** A move's from or to point (a placement has no from: -1). */
function pointOf(move: Move, end: 'from' | 'to'): number {
  if (end === 'from') return 'from' in move ? move.from : -1;
  return 'path' in move ? move.path[move.path.length - 1]! : move.to;
}

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

  /**
   * `fromRoot`: every step starts at the root (the same expansions, more plies walked; for tests).
   * `reuse`: a prover that follows one game (the oracle's) keeps its tree from one of its side's
   * moves to the next: the node two plies down for the moves played becomes the root, so the
   * budget adds up along the game where the game goes (a proof needing more than one move's budget
   * can be found over several).
   */
  constructor(
    private readonly probe: BoardProbe,
    private readonly winCaptures = 5,
    private readonly fromRoot = false,
    private readonly reuse = false,
  ) {}

  /** The last root's game (its start and moves), for `reuse`. */
  private lastMoves: readonly Move[] | null = null;
  private lastStart = '';

  /**
   * `reuse`: when `game` is the last root's game two plies on, the last tree's node for those two
   * moves becomes the root (its subtree copied to the front), so the work there is kept.
   */
  private reroot(game: Game): boolean {
    const last = this.lastMoves;
    if (!this.reuse || last === null || this.size === 0 || this.lastStart !== makePosition(game.start))
      return false;
    const n = last.length;
    if (game.moves.length !== n + 2) return false;
    // The same game (by value: a bot worker parses each request afresh): the same start and moves.
    for (let i = n - 1; i >= 0; i--) if (!sameMove(game.moves[i]!, last[i]!)) return false;
    let node = 0;
    for (const move of game.moves.slice(n)) {
      const from = this.first[node]!;
      let found = -1;
      for (let c = from; c < from + this.count[node]!; c++) {
        const m = this.move[c]!;
        // A packed move's (from, to) against the move object's points.
        if (((m >>> 2) & 31) === pointOf(move, 'from') && ((m >>> 7) & 31) === pointOf(move, 'to')) found = c;
      }
      if (found < 0) return false;
      node = found;
    }
    // Copy the subtree of `node` to the front, breadth first (children stay contiguous).
    const old = { move: this.move, first: this.first, count: this.count, pn: this.pn, dn: this.dn };
    const capacity = this.capacity;
    this.move = new Int32Array(capacity);
    this.first = new Int32Array(capacity);
    this.count = new Int32Array(capacity);
    this.pn = new Int32Array(capacity);
    this.dn = new Int32Array(capacity);
    const queue = [node];
    const copyOf = [0];
    let size = 1;
    const put = (to: number, from: number) => {
      this.move[to] = old.move[from]!;
      this.pn[to] = old.pn[from]!;
      this.dn[to] = old.dn[from]!;
      this.count[to] = old.count[from]!;
    };
    put(0, node);
    for (let q = 0; q < queue.length; q++) {
      const from = queue[q]!;
      const to = copyOf[q]!;
      const k = old.count[from]!;
      this.first[to] = k > 0 ? size : 0;
      for (let i = 0; i < k; i++) {
        put(size, old.first[from]! + i);
        queue.push(old.first[from]! + i);
        copyOf.push(size);
        size++;
      }
    }
    this.size = size;
    return true;
  }

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
    this.path.length = 0;
    this.current = 0;
    this.currentRootSide = true;
    const kept = this.reroot(game);
    this.lastMoves = game.moves;
    this.lastStart = makePosition(game.start);
    if (!kept || this.count[0] === 0) {
      this.size = 1;
      this.allocate(1);
      this.init(0);
      this.expand(0, board, history, true);
    }
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
