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
import {
  DEFAULT_WEIGHTS,
  evaluateForTigers,
  GOAT_WEIGHTS,
  scanCaptures,
  type Weights,
  WIN_SCORE,
} from './evaluate.js';

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
/** moveKey() is below this. */
const MOVE_KEYS = 1024 + 25 * 25 + 26 * 625;
const PLACE = 0;
const JUMP = 2;
/** Plies of captures and answers to threats searched past the horizon. */
const MAX_QUIESCENCE_PLIES = 2;
const NO_CAPTURES = { threatened: 0, landings: 0 } as const;

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
    this.weights = weightsFor(game, limits);
    if (this.tt.size > TT_LIMIT) this.tt.clear();
    this.killers.length = 0;
    for (const scores of this.historyScores) for (let k = 0; k < MOVE_KEYS; k++) scores[k]! /= 8;
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
    if (depth <= 0) return this.quiesce(board, history, alphaIn, beta, ply, 0);
    let alpha = alphaIn;
    const entry = this.tt.get(board.hash);
    if (entry && entry.depth >= depth) {
      if (entry.flag === EXACT) return entry.score;
      if (entry.flag === LOWER && entry.score >= beta) return entry.score;
      if (entry.flag === UPPER && entry.score <= alpha) return entry.score;
    }
    const moves = this.ordered(board.generateMoves(), entry?.best ?? -1, ply, board.goatToMove);
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
        // Principal variation search: later moves only have to prove they are no better.
        if (legal === 1) score = -this.negamax(board, history, depth - 1, -beta, -alpha, ply + 1);
        else {
          score = -this.negamax(board, history, depth - 1, -alpha - 1, -alpha, ply + 1);
          if (score > alpha && score < beta)
            score = -this.negamax(board, history, depth - 1, -beta, -alpha, ply + 1);
        }
      } finally {
        board.unrecord(history);
        board.unmake(move);
      }
      if (score > best) {
        best = score;
        bestMove = moveKey(move);
      }
      if (score > alpha) alpha = score;
      if (alpha >= beta) {
        if (move.kind !== 'jump') this.rememberCutoff(move, depth, ply, board.goatToMove);
        break;
      }
    }
    // R15: no legal move, R13 included, loses.
    if (legal === 0) return -(WIN_SCORE - ply);
    const flag = best <= alphaIn ? UPPER : best >= beta ? LOWER : EXACT;
    this.tt.set(board.hash, { depth, score: best, flag, best: bestMove });
    return best;
  }

  /**
   * At the horizon a position is not scored as quiet while a capture is pending: the tigers may
   * take a hanging goat (or stand pat), and goats facing a threat must answer it with a move —
   * they may not stand pat, since a double threat costs a goat however it is scored statically.
   */
  private quiesce(
    board: SearchBoard,
    history: RepetitionTable,
    alphaIn: number,
    beta: number,
    ply: number,
    qply: number,
  ): number {
    if (board.tigersHaveWon()) return board.goatToMove ? -(WIN_SCORE - ply) : WIN_SCORE - ply;
    const moves = this.buffer(ply);
    const count = board.generatePacked(moves, 0);
    if (count === 0) return -(WIN_SCORE - ply);
    const forTigers = evaluateForTigers(board, this.weights);
    const standPat = board.goatToMove ? -forTigers : forTigers;
    // The goats' answers to a threat: cover a landing point, or step a threatened goat away.
    const { threatened, landings } = board.goatToMove ? scanCaptures(board) : NO_CAPTURES;
    if (board.goatToMove && (qply >= MAX_QUIESCENCE_PLIES || threatened === 0)) return standPat;
    let alpha = alphaIn;
    let best = -WIN_SCORE * 2;
    if (!board.goatToMove) {
      if (standPat >= beta) return standPat;
      best = standPat;
      if (standPat > alpha) alpha = standPat;
    }
    let legal = 0;
    for (let i = 0; i < count && alpha < beta; i++) {
      const m = moves[i]!;
      if (board.goatToMove) {
        const answers = ((landings >>> ((m >>> 7) & 31)) | (threatened >>> ((m >>> 2) & 31))) & 1;
        if (answers === 0 || ((m & 3) === PLACE && ((landings >>> ((m >>> 7) & 31)) & 1) === 0)) continue;
      } else if ((m & 3) !== JUMP) continue;
      board.makePacked(m);
      if (board.repeats(history)) {
        board.unmakePacked(m);
        continue;
      }
      legal++;
      this.nodes++;
      this.checkBudget();
      board.record(history);
      let score: number;
      try {
        score = -this.quiesce(board, history, -beta, -alpha, ply + 1, qply + 1);
      } finally {
        board.unrecord(history);
        board.unmakePacked(m);
      }
      if (score > best) best = score;
      if (score > alpha) alpha = score;
    }
    // No answer to the threat (or none R13 allows): the static score stands.
    return legal === 0 ? standPat : best;
  }

  /** Quiet moves that caused cut-offs: two killers per ply, and history scores per side. */
  private readonly killers: number[] = [];
  private readonly historyScores = [new Float64Array(MOVE_KEYS), new Float64Array(MOVE_KEYS)];

  private rememberCutoff(move: Move, depth: number, ply: number, goatToMove: boolean): void {
    const key = moveKey(move);
    if (this.killers[ply * 2] !== key) {
      this.killers[ply * 2 + 1] = this.killers[ply * 2] ?? -1;
      this.killers[ply * 2] = key;
    }
    this.historyScores[goatToMove ? 1 : 0]![key]! += depth * depth;
  }

  /** TT move, then captures (longest first), then killers, then quiet moves by history. */
  private ordered(moves: Move[], ttBest: number, ply: number, goatToMove: boolean): Move[] {
    const scores = this.historyScores[goatToMove ? 1 : 0]!;
    const killer1 = this.killers[ply * 2] ?? -1;
    const killer2 = this.killers[ply * 2 + 1] ?? -1;
    const ranks = this.ranks;
    // Insertion sort in place: the lists are short, and this allocates nothing.
    for (let i = 0; i < moves.length; i++) {
      const move = moves[i]!;
      const key = moveKey(move);
      const rank =
        key === ttBest
          ? 4e12
          : move.kind === 'jump'
            ? 3e12 + move.path.length
            : key === killer1
              ? 2e12
              : key === killer2
                ? 1e12
                : scores[key]!;
      let j = i;
      while (j > 0 && ranks[j - 1]! < rank) {
        moves[j] = moves[j - 1]!;
        ranks[j] = ranks[j - 1]!;
        j--;
      }
      moves[j] = move;
      ranks[j] = rank;
    }
    return moves;
  }
  private readonly ranks = new Float64Array(MAX_MOVES);

  private readonly buffers: Int32Array[] = [];
  private buffer(ply: number): Int32Array {
    while (this.buffers.length <= ply) this.buffers.push(new Int32Array(MAX_MOVES));
    return this.buffers[ply]!;
  }
}

/** Each side searches with its own view of the game (the goats' weights are tuned apart). */
export function weightsFor(game: Game, limits: SearchLimits = {}): Weights {
  return limits.weights ?? (game.position.toMove === 'goat' ? GOAT_WEIGHTS : DEFAULT_WEIGHTS);
}

/** A number naming a move for the TT (multi-jumps with the same ends share one: only ordering uses it). */
function moveKey(m: Move): number {
  if (m.kind === 'place') return m.to;
  if (m.kind === 'step') return 32 + m.from * 25 + m.to;
  return 1024 + m.from * 25 + m.path[m.path.length - 1]! + m.path.length * 625;
}
