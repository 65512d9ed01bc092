/**
 * The bench's baseline: `max`'s search as it was before issue 21 (table scores reused across
 * lines, searches and games whatever the history; mate scores stored as from the root), with the
 * evaluation's terms of then. Not shipped: only `pnpm bench:engine` plays it.
 */

import {
  DEFAULT_WEIGHTS,
  evaluateForTigers,
  type SearchLimits,
  type SearchResult,
  type Weights,
  WIN_SCORE,
} from '@bagh/engine';
import {
  baghChalEndgame,
  type EndgameTable,
  EXACT,
  LOWER,
  scanCaptures,
  TranspositionTable,
  UPPER,
} from '@bagh/engine/internal';
import {
  type Game,
  legalMoves as gameLegalMoves,
  historyOf,
  MAX_MOVES,
  type Move,
  type RepetitionTable,
  SearchBoard,
} from '@bagh/rules';

/** moveKey() is below this. */
const MOVE_KEYS = 1024 + 25 * 25 + 26 * 625;
/** Packed move kinds (the rules' `kind | from << 2 | to << 7 | over << 12`), and one of ours. */
const PLACE = 0;
const STEP = 1;
const JUMP = 2;
/** `MOVE_OBJECT | i << 2` names the i-th move object of its ply: multi-jumps do not pack. */
const MOVE_OBJECT = 3;
/** Plies of captures and answers to threats searched past the horizon. */
const MAX_QUIESCENCE_PLIES = 2;
const NO_CAPTURES = { threatened: 0, landings: 0 } as const;

class OutOfBudget extends Error {}
const NEVER = () => false;

export class BaselineSearcher {
  private readonly tt = new TranspositionTable();
  /** What the stored scores were made for: other weights or another board void them. */
  private ttContext = '';
  private nodes = 0;
  private deadline = Number.POSITIVE_INFINITY;
  private maxNodes = Number.POSITIVE_INFINITY;
  private now: () => number = () => performance.now();
  private stopped: () => boolean = NEVER;
  private weights: Weights = DEFAULT_WEIGHTS;
  private endgame: EndgameTable | null = null;

  search(game: Game, limits: SearchLimits = {}): SearchResult {
    const rootMoves = [...gameLegalMoves(game)];
    this.nodes = 0;
    // Before the clock starts: the first search to use the table waits for it to be solved.
    this.endgame = limits.endgame && game.variant === 'bagh-chal' ? baghChalEndgame() : null;
    this.now = limits.now ?? (() => performance.now());
    this.deadline = limits.timeMs === undefined ? Number.POSITIVE_INFINITY : this.now() + limits.timeMs;
    this.stopped = limits.stopped ?? NEVER;
    this.maxNodes = limits.maxNodes ?? Number.POSITIVE_INFINITY;
    this.weights = weightsFor(game, limits);
    const context = `${game.variant} ${JSON.stringify(game.options)} ${JSON.stringify(this.weights)} ${this.endgame !== null}`;
    if (context !== this.ttContext) this.tt.clear();
    this.ttContext = context;
    this.tt.nextSearch();
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
    if ((this.nodes & 1023) === 0 && (this.now() >= this.deadline || this.stopped())) throw new OutOfBudget();
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
    const tableValue = this.endgame?.valueOf(board);
    // A forced capture is searched on: how it plays out matters more than when it comes.
    if (tableValue !== undefined && tableValue <= 0) return this.endgameScore(board, tableValue);
    let alpha = alphaIn;
    const slot = this.tt.probe(board.hash);
    if (slot >= 0 && this.tt.depth(slot) >= depth) {
      const stored = this.tt.score(slot);
      const flag = this.tt.flag(slot);
      if (flag === EXACT) return stored;
      if (flag === LOWER && stored >= beta) return stored;
      if (flag === UPPER && stored <= alpha) return stored;
    }
    const moves = this.buffer(ply);
    const count = this.generate(board, moves, ply);
    this.order(moves, count, slot >= 0 ? this.tt.best(slot) : -1, ply, board.goatToMove);
    let best = -WIN_SCORE * 2;
    let bestKey = -1;
    let legal = 0;
    for (let i = 0; i < count; i++) {
      const m = moves[i]!;
      this.makeCode(board, m, ply);
      if (board.repeats(history)) {
        this.unmakeCode(board, m, ply);
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
        this.unmakeCode(board, m, ply);
      }
      if (score > best) {
        best = score;
        bestKey = this.codeKey(m, ply);
      }
      if (score > alpha) alpha = score;
      if (alpha >= beta) {
        if (!this.isCapture(m, ply)) this.rememberCutoff(this.codeKey(m, ply), depth, ply, board.goatToMove);
        break;
      }
    }
    // R15: no legal move, R13 included, loses.
    if (legal === 0) return -(WIN_SCORE - ply);
    this.tt.store(board.hash, depth, best <= alphaIn ? UPPER : best >= beta ? LOWER : EXACT, best, bestKey);
    return best;
  }

  /**
   * The pseudo-legal moves as codes into `out`: packed moves where the variant's moves pack,
   * otherwise indices into this ply's list of move objects (multi-jumps).
   */
  private generate(board: SearchBoard, out: Int32Array, ply: number): number {
    if (!board.multiJump) return board.generatePacked(out, 0);
    const objects = board.generateMoves();
    this.moveObjects[ply] = objects;
    for (let i = 0; i < objects.length; i++) out[i] = MOVE_OBJECT | (i << 2);
    return objects.length;
  }
  private readonly moveObjects: Move[][] = [];

  private objectOf(code: number, ply: number): Move {
    return this.moveObjects[ply]![code >>> 2]!;
  }

  private makeCode(board: SearchBoard, code: number, ply: number): void {
    if ((code & 3) === MOVE_OBJECT) board.make(this.objectOf(code, ply));
    else board.makePacked(code);
  }

  private unmakeCode(board: SearchBoard, code: number, ply: number): void {
    if ((code & 3) === MOVE_OBJECT) board.unmake(this.objectOf(code, ply));
    else board.unmakePacked(code);
  }

  private isCapture(code: number, ply: number): boolean {
    const kind = code & 3;
    return kind === JUMP || (kind === MOVE_OBJECT && this.objectOf(code, ply).kind === 'jump');
  }

  /** The same number `moveKey` gives the move's object. */
  private codeKey(code: number, ply: number): number {
    const to = (code >>> 7) & 31;
    const from = (code >>> 2) & 31;
    switch (code & 3) {
      case PLACE:
        return to;
      case STEP:
        return 32 + from * 25 + to;
      case JUMP:
        return 1024 + from * 25 + to + 625;
      default:
        return moveKey(this.objectOf(code, ply));
    }
  }

  /**
   * At the horizon a position is not scored as quiet while a capture is pending: the tigers may
   * take a hanging goat (or stand pat), and goats facing a threat must answer it with a move —
   * they may not stand pat, since a double threat costs a goat however it is scored statically.
   * Nor may goats in zugzwang, on a crowded board where every goat move opens a line.
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
    const tableValue = this.endgame?.valueOf(board);
    if (tableValue !== undefined) return this.endgameScore(board, tableValue);
    const moves = this.buffer(ply);
    const count = board.generatePacked(moves, 0);
    if (count === 0) return -(WIN_SCORE - ply);
    const forTigers = evaluateForTigers(board, this.weights);
    const standPat = board.goatToMove ? -forTigers : forTigers;
    // The goats' answers to a threat: cover a landing point, or step a threatened goat away.
    const { threatened, landings } = board.goatToMove ? scanCaptures(board) : NO_CAPTURES;
    // Goats whose every move opens a line are in zugzwang: they may not stand pat either.
    const zugzwang = board.goatToMove && threatened === 0 && !this.goatsHaveSafeMove(board, moves, count);
    if (board.goatToMove) {
      if (threatened === 0 && !zugzwang) return standPat;
      if (qply >= MAX_QUIESCENCE_PLIES) return zugzwang ? standPat - this.weights.capture : standPat;
    }
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
      // In zugzwang every goat move is searched: the tigers' reply shows which goat is lost.
      if (!board.goatToMove) {
        if ((m & 3) !== JUMP) continue;
      } else if (!zugzwang) {
        const answers = ((landings >>> ((m >>> 7) & 31)) | (threatened >>> ((m >>> 2) & 31))) & 1;
        if (answers === 0 || ((m & 3) === PLACE && ((landings >>> ((m >>> 7) & 31)) & 1) === 0)) continue;
      }
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

  /**
   * A forced capture scores at the horizon as the goat already taken; a forced trap as a win,
   * though one the table found without the no-repeat rule, so it ranks below any win the search
   * proves; a fortress by the static evaluation.
   */
  private endgameScore(board: SearchBoard, value: number): number {
    const forTigers =
      value < 0
        ? -(WIN_SCORE / 2) - value
        : evaluateForTigers(board, this.weights) + (value > 0 ? this.weights.capture : 0);
    return board.goatToMove ? -forTigers : forTigers;
  }

  /** Whether a goat move leaves the tigers nothing to take; placements always count as safe. */
  private goatsHaveSafeMove(board: SearchBoard, moves: Int32Array, count: number): boolean {
    if (board.goatsInHand > 0) return true;
    for (let i = 0; i < count; i++) {
      board.makePacked(moves[i]!);
      const safe = scanCaptures(board).threatened === 0;
      board.unmakePacked(moves[i]!);
      if (safe) return true;
    }
    return false;
  }

  /** Quiet moves that caused cut-offs: two killers per ply, and history scores per side. */
  private readonly killers: number[] = [];
  private readonly historyScores = [new Float64Array(MOVE_KEYS), new Float64Array(MOVE_KEYS)];

  private rememberCutoff(key: number, depth: number, ply: number, goatToMove: boolean): void {
    if (this.killers[ply * 2] !== key) {
      this.killers[ply * 2 + 1] = this.killers[ply * 2] ?? -1;
      this.killers[ply * 2] = key;
    }
    this.historyScores[goatToMove ? 1 : 0]![key]! += depth * depth;
  }

  /** TT move, then captures (longest first), then killers, then quiet moves by history. */
  private order(codes: Int32Array, count: number, ttBest: number, ply: number, goatToMove: boolean): void {
    const scores = this.historyScores[goatToMove ? 1 : 0]!;
    const killer1 = this.killers[ply * 2] ?? -1;
    const killer2 = this.killers[ply * 2 + 1] ?? -1;
    const ranks = this.ranks;
    // Insertion sort in place: the lists are short, and this allocates nothing.
    for (let i = 0; i < count; i++) {
      const code = codes[i]!;
      const key = this.codeKey(code, ply);
      const rank =
        key === ttBest
          ? 4e12
          : this.isCapture(code, ply)
            ? 3e12 + this.captureLength(code, ply)
            : key === killer1
              ? 2e12
              : key === killer2
                ? 1e12
                : scores[key]!;
      let j = i;
      while (j > 0 && ranks[j - 1]! < rank) {
        codes[j] = codes[j - 1]!;
        ranks[j] = ranks[j - 1]!;
        j--;
      }
      codes[j] = code;
      ranks[j] = rank;
    }
  }

  private captureLength(code: number, ply: number): number {
    const move = (code & 3) === MOVE_OBJECT ? this.objectOf(code, ply) : null;
    return move?.kind === 'jump' ? move.path.length : 1;
  }
  private readonly ranks = new Float64Array(MAX_MOVES);

  private readonly buffers: Int32Array[] = [];
  private buffer(ply: number): Int32Array {
    while (this.buffers.length <= ply) this.buffers.push(new Int32Array(MAX_MOVES));
    return this.buffers[ply]!;
  }
}

/**
 * The goats' weights before issue 21's goat work (crampedGoats, a goat at 120), written out as
 * GOAT_WEIGHTS had them: later tuning must not reach the baseline.
 */
const OLD_GOAT_WEIGHTS: Weights = {
  capture: 60,
  threat: 30,
  mobility: 4,
  trappedTiger: 15,
  exposedGoat: 10,
  centralTiger: 30,
  lockedRace: 0,
  crampedGoats: 0,
};

/** Each side searches with its own view of the game (the goats' weights are tuned apart). */
function weightsFor(game: Game, limits: SearchLimits = {}): Weights {
  return {
    ...(limits.weights ?? (game.position.toMove === 'goat' ? OLD_GOAT_WEIGHTS : DEFAULT_WEIGHTS)),
    lockedRace: 0,
    crampedGoats: 0,
  };
}

/** A number naming a move for the TT (multi-jumps with the same ends share one: only ordering uses it). */
function moveKey(m: Move): number {
  if (m.kind === 'place') return m.to;
  if (m.kind === 'step') return 32 + m.from * 25 + m.to;
  return 1024 + m.from * 25 + m.path[m.path.length - 1]! + m.path.length * 625;
}
