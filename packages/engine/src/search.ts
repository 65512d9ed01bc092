/**
 * Iterative-deepening negamax alpha-beta with a transposition table keyed by the rules' incremental
 * hash, TT-move and capture-first ordering, and a node or time budget. The no-repeat rule (R13) is
 * respected: the game's history is extended along the searched line.
 */
import {
  type Game,
  legalMoves as gameLegalMoves,
  historyOf,
  MAX_MOVES,
  type Move,
  type RepetitionTable,
  SearchBoard,
} from '@bagh/rules';
import { DEFAULT_WEIGHTS, evaluateForTigers, type Weights, WIN_SCORE } from './evaluate.js';

export interface SearchLimits {
  /** Stop deepening after this many milliseconds (checked every few thousand nodes). */
  readonly timeMs?: number;
  readonly maxDepth?: number;
  readonly maxNodes?: number;
  readonly weights?: Weights;
  /** Score every root move exactly (slower); otherwise only the best one is exact. */
  readonly exactRootScores?: boolean;
  /** Source of time; injectable so tests and benches can count instead of measure. */
  readonly now?: () => number;
}

export interface SearchResult {
  readonly move: Move | null;
  /** From the side to move's point of view. */
  readonly score: number;
  readonly depth: number;
  readonly nodes: number;
  /** Every root move with its score at the last completed depth, best first. */
  readonly rootScores: ReadonlyArray<{ readonly move: Move; readonly score: number }>;
}

interface TtEntry {
  depth: number;
  score: number;
  flag: 0 | 1 | 2; // exact, lower bound, upper bound
  best: number;
}

const EXACT = 0;
const LOWER = 1;
const UPPER = 2;
const TT_LIMIT = 1 << 18;
const JUMP = 2;

class OutOfBudget extends Error {}

export class Searcher {
  private readonly tt = new Map<number, TtEntry>();
  private nodes = 0;
  private deadline = Number.POSITIVE_INFINITY;
  private maxNodes = Number.POSITIVE_INFINITY;
  private now: () => number = () => performance.now();
  private weights: Weights = DEFAULT_WEIGHTS;

  search(game: Game, limits: SearchLimits = {}): SearchResult {
    const rootMoves = [...gameLegalMoves(game)];
    this.nodes = 0;
    this.now = limits.now ?? (() => performance.now());
    this.deadline = limits.timeMs === undefined ? Number.POSITIVE_INFINITY : this.now() + limits.timeMs;
    this.maxNodes = limits.maxNodes ?? Number.POSITIVE_INFINITY;
    this.weights = limits.weights ?? DEFAULT_WEIGHTS;
    if (this.tt.size > TT_LIMIT) this.tt.clear();
    if (rootMoves.length === 0) return { move: null, score: 0, depth: 0, nodes: 0, rootScores: [] };

    const board = new SearchBoard(game.variant, game.options, game.position);
    const history = historyOf(game).clone();
    const maxDepth = limits.maxDepth ?? 64;
    let completed: SearchResult = {
      move: rootMoves[0]!,
      score: 0,
      depth: 0,
      nodes: 0,
      rootScores: rootMoves.map((move) => ({ move, score: 0 })),
    };
    let order = rootMoves;
    for (let depth = 1; depth <= maxDepth; depth++) {
      try {
        const scored = this.searchRoot(board, history, order, depth, limits.exactRootScores ?? false);
        order = scored.map((s) => s.move);
        completed = {
          move: scored[0]!.move,
          score: scored[0]!.score,
          depth,
          nodes: this.nodes,
          rootScores: scored,
        };
        if (Math.abs(scored[0]!.score) >= WIN_SCORE - 1000) break;
      } catch (error) {
        if (!(error instanceof OutOfBudget)) throw error;
        break;
      }
    }
    return { ...completed, nodes: this.nodes };
  }

  private searchRoot(
    board: SearchBoard,
    history: RepetitionTable,
    moves: readonly Move[],
    depth: number,
    exact: boolean,
  ) {
    const scored: Array<{ move: Move; score: number }> = [];
    let alpha = -WIN_SCORE * 2;
    for (const move of moves) {
      board.make(move);
      board.record(history);
      let score: number;
      try {
        score = -this.negamax(
          board,
          history,
          depth - 1,
          -WIN_SCORE * 2,
          exact ? WIN_SCORE * 2 : -alpha + 1,
          1,
        );
      } finally {
        board.unrecord(history);
        board.unmake(move);
      }
      scored.push({ move, score });
      if (score > alpha) alpha = score;
    }
    // Stable sort keeps the previous order among equals, so the TT-best move stays first.
    return scored.sort((a, b) => b.score - a.score);
  }

  private checkBudget(): void {
    if (this.nodes >= this.maxNodes) throw new OutOfBudget();
    if ((this.nodes & 1023) === 0 && this.now() >= this.deadline) throw new OutOfBudget();
  }

  private negamax(
    board: SearchBoard,
    history: RepetitionTable,
    depth: number,
    alphaIn: number,
    beta: number,
    ply: number,
  ): number {
    this.nodes++;
    this.checkBudget();
    if (board.tigersHaveWon()) return board.goatToMove ? -(WIN_SCORE - ply) : WIN_SCORE - ply;
    if (depth <= 0) return this.quiesce(board, beta, ply);
    let alpha = alphaIn;
    const entry = this.tt.get(board.hash);
    if (entry && entry.depth >= depth) {
      if (entry.flag === EXACT) return entry.score;
      if (entry.flag === LOWER && entry.score >= beta) return entry.score;
      if (entry.flag === UPPER && entry.score <= alpha) return entry.score;
    }
    const moves = board.generateMoves();
    orderMoves(moves, entry?.best ?? -1);
    let best = -WIN_SCORE * 2;
    let bestMove = -1;
    let legal = 0;
    for (const move of moves) {
      board.make(move);
      if (board.repeats(history)) {
        board.unmake(move);
        continue;
      }
      legal++;
      board.record(history);
      let score: number;
      try {
        score = -this.negamax(board, history, depth - 1, -beta, -alpha, ply + 1);
      } finally {
        board.unrecord(history);
        board.unmake(move);
      }
      if (score > best) {
        best = score;
        bestMove = moveKey(move);
      }
      if (score > alpha) alpha = score;
      if (alpha >= beta) break;
    }
    // R15: no legal move, R13 included, loses.
    if (legal === 0) return -(WIN_SCORE - ply);
    const flag = best <= alphaIn ? UPPER : best >= beta ? LOWER : EXACT;
    this.tt.set(board.hash, { depth, score: best, flag, best: bestMove });
    return best;
  }

  /**
   * At the horizon the tigers may still take one hanging goat, so a position is not scored as
   * quiet while a capture is pending. The goats' side stands pat on the static score.
   */
  private quiesce(board: SearchBoard, beta: number, ply: number): number {
    if (board.countPacked() === 0) return -(WIN_SCORE - ply);
    const forTigers = evaluateForTigers(board, this.weights);
    if (board.goatToMove) return -forTigers;
    let best = forTigers;
    if (best >= beta) return best;
    const moves = this.buffer(ply);
    const count = board.generatePacked(moves, 0);
    for (let i = 0; i < count && best < beta; i++) {
      const m = moves[i]!;
      if ((m & 3) !== JUMP) continue;
      this.nodes++;
      board.makePacked(m);
      const blocked = board.countPacked() === 0;
      const score =
        board.tigersHaveWon() || blocked ? WIN_SCORE - ply - 1 : evaluateForTigers(board, this.weights);
      board.unmakePacked(m);
      if (score > best) best = score;
    }
    return best;
  }

  private readonly buffers: Int32Array[] = [];
  private buffer(ply: number): Int32Array {
    while (this.buffers.length <= ply) this.buffers.push(new Int32Array(MAX_MOVES));
    return this.buffers[ply]!;
  }
}

/** A number naming a move for the TT (multi-jumps with the same ends share one: only ordering uses it). */
function moveKey(m: Move): number {
  if (m.kind === 'place') return m.to;
  if (m.kind === 'step') return 32 + m.from * 25 + m.to;
  return 1024 + m.from * 25 + m.path[m.path.length - 1]! + m.path.length * 625;
}

/** TT move first, then jumps (captures), longest multi-jumps first. */
function orderMoves(moves: Move[], ttBest: number): void {
  const key = (m: Move): number =>
    (moveKey(m) === ttBest ? 1000 : 0) + (m.kind === 'jump' ? 10 * m.path.length : 0);
  moves.sort((a, b) => key(b) - key(a));
}
