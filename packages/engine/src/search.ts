/**
 * Iterative-deepening negamax alpha-beta with a transposition table keyed by the rules' incremental
 * hash, TT-move and capture-first ordering, and a node or time budget. The no-repeat rule (R13) is
 * respected: the game's history is extended along the searched line. Optionally, positions with all
 * 20 Bagh Chal goats on the board are looked up in the endgame table.
 *
 * The table is keyed by position, but under R13 a score also depends on the history, so:
 * - a score that a repetition-refused move shaped is stored only when the repeated position lies
 *   in the game before the root (the same for every line of this search: the table's epoch) or
 *   in the subtree itself; one that depended on the line leading to the node keeps only its move;
 * - a stored score answers a node only if no position of the line leading to it could recur
 *   within the stored search's reach (it was searched as if they were free to play);
 * - the epoch changes when the game's history does (every move of a movement phase), and a search
 *   of another game than the last clears the table (`newGame`);
 * - mate scores are stored relative to the node, so they hold at any ply.
 *
 * A sliding-phase tablebase, when the host injects one (`tableProbe`), values Bagh Chal positions
 * with every goat placed. Its values ignore history, so under R13 they are trusted only at a
 * *fresh* node: one whose move placed the last goat or captured one. No earlier position of the
 * game or of the line can recur from it (goats in hand and captures never come back), and a table
 * win in N is a line of strictly falling distances, which never repeats itself, so under R13 it
 * still wins, in N plies or fewer (a move R13 refuses the loser only shortens it). There a win or
 * loss is a mate score at ply + N, and the node is not searched further. A table draw is not a
 * draw under R13 (every game ends: a race for unrepeated moves, issue 21), so there the search
 * goes on as without a table: scoring draws 0 made `max` give goats away for "draws" it then lost
 * (the bench, README). At other sliding-phase nodes (where the game or the line may forbid the
 * table's line) the table is not used. Without R13 every sliding-phase node is fresh and a draw
 * scores 0.
 */
import {
  type Game,
  legalMoves as gameLegalMoves,
  historyOf,
  MAX_MOVES,
  type Move,
  popcount,
  type RepetitionTable,
  SearchBoard,
  sameMove,
} from '@bagh/rules';
import { baghChalEndgame, type EndgameTable } from './endgame.js';
import {
  DEFAULT_WEIGHTS,
  evaluateForTigers,
  GOAT_WEIGHTS,
  scanCaptures,
  type Weights,
  WIN_SCORE,
} from './evaluate.js';
import { scoreRootMoves } from './root-moves.js';
import { EXACT, LOWER, MOVE_ONLY, TranspositionTable, UPPER } from './transposition.js';

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
  /** Look up Bagh Chal positions with all 20 goats on the board in the endgame table. */
  readonly endgame?: boolean;
  /**
   * Polled with the clock: true ends the search early (its answer is no longer wanted), as if
   * its time were up. Read across threads (an Atomics flag), so it must be cheap.
   */
  readonly stopped?: () => boolean;
  /**
   * Late-move reductions: quiet moves ordered late (no capture, not the table's move nor a
   * killer, not a goat's answer to a threat) are searched a ply shallower first, and again at full
   * depth only if they beat the best so far. Deeper on the same nodes; on for `max`.
   */
  readonly reductions?: boolean;
  /**
   * The sliding-phase tablebase (Bagh Chal, single jumps): injected by a Node host, never I/O of
   * the search's own. Used at fresh nodes only (above).
   */
  readonly tableProbe?: TableProbe;
  /** Search only these root moves (legal ones of the game; e.g. the moves that keep the table's value). */
  readonly rootMoves?: readonly Move[];
  /**
   * The goats' budget by the phase of a Bagh Chal game (`goatBudgetFactor`), on both their
   * nodes and their clock: more where the placement ends and the sliding begins, less elsewhere,
   * about as much over a game. There a root move that beat the last full depth's best in the
   * depth the budget cut short is played (not that best). On for `max`.
   */
  readonly goatBudget?: boolean;
}

/**
 * The goats' budget shape (issue 21): max's goats lost their games where the placement ends and
 * the sliding begins (the tigers' forks at plies 34–48 thin them to 16–17 goats, and from there
 * the tablebase's draws hold by one or two moves a turn, lost 11–65 plies later). Max against old
 * max, goats, from the 48 sound openings: ten times the nodes on plies 26–60 only won 35-0-13
 * (won-drawn-lost) against 26-1-21 on 20k nodes a move, ten times on 3+ goats taken only changed
 * nothing measurable. This shape spends as many nodes over a game as before (2.0 on 17 goat
 * moves a game, 0.6 on 43, measured on those games).
 */
export const GOAT_BUDGET_SHAPE = {
  /** Goats in hand at most this many (and one or more) … */
  lateHand: 8,
  /** … or all placed no more than this many plies ago. */
  earlySliding: 22,
  transition: 2,
  elsewhere: 0.6,
} as const;

/**
 * What the goats' budget is multiplied by (SearchLimits.goatBudget): 1 for the tigers, for other
 * variants than Bagh Chal and for games that began without goats in hand (a set sliding position).
 */
export function goatBudgetFactor(game: Game): number {
  const { position } = game;
  if (position.toMove !== 'goat' || game.variant !== 'bagh-chal' || game.start.goatsInHand === 0) return 1;
  const hand = position.goatsInHand;
  if (hand > 0)
    return hand <= GOAT_BUDGET_SHAPE.lateHand ? GOAT_BUDGET_SHAPE.transition : GOAT_BUDGET_SHAPE.elsewhere;
  let placed = game.moves.length - 1;
  while (placed >= 0 && game.moves[placed]!.kind !== 'place') placed--;
  return placed >= 0 && game.moves.length - placed <= GOAT_BUDGET_SHAPE.earlySliding
    ? GOAT_BUDGET_SHAPE.transition
    : GOAT_BUDGET_SHAPE.elsewhere;
}

/**
 * The table's value of a Bagh Chal board with every goat placed: undefined where it has none, 0 a
 * draw, otherwise 1 + the plies to the end with best play, the side to move winning iff those
 * plies are odd (the stored value of tablebase/FORMAT.md).
 */
export type TableProbe = (
  tigers: number,
  goatMask: number,
  captured: number,
  goatToMove: boolean,
) => number | undefined;

export interface SearchResult {
  readonly move: Move | null;
  /** From the side to move's point of view. */
  readonly score: number;
  readonly depth: number;
  readonly nodes: number;
  /** Every root move with its score at the last completed depth, best first. */
  readonly rootScores: ReadonlyArray<{ readonly move: Move; readonly score: number }>;
}

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
/** Late-move reductions: from this depth, after this many moves searched in full. */
const LMR_MIN_DEPTH = 3;
const LMR_FIRST_MOVES = 3;
const NO_CAPTURES = { threatened: 0, landings: 0 } as const;

class OutOfBudget extends Error {}
const NEVER = () => false;
/** Scores beyond this are wins or losses in (WIN_SCORE − score) plies. */
const MATE_BOUND = WIN_SCORE - 1000;
/** The ply of the repeated position a score depended on: none, or one before the root. */
const NO_DEPENDENCY = 1 << 30;
const BEFORE_ROOT = -1;
/** Deeper than any line the search makes (its depth cap, quiescence and extensions). */
const MAX_PLY = 256;

/** A mate score as distance from the node (stored), and back to distance from the root. */
const toStored = (score: number, ply: number): number =>
  score >= MATE_BOUND ? score + ply : score <= -MATE_BOUND ? score - ply : score;
const fromStored = (score: number, ply: number): number =>
  score >= MATE_BOUND ? score - ply : score <= -MATE_BOUND ? score + ply : score;

export class Searcher {
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
  private reductions = false;
  private tableProbe: TableProbe | null = null;
  /** The game the last search was of: a search of another one starts afresh. */
  private lastGame: Game | null = null;
  /** The positions on the searched line, by ply (the root at 0): hash, pieces and material. */
  private readonly line = new Int32Array(MAX_PLY);
  private readonly lineTigers = new Int32Array(MAX_PLY);
  private readonly lineGoats = new Int32Array(MAX_PLY);
  private readonly lineMaterial = new Int32Array(MAX_PLY);
  /**
   * Set by every negamax and quiesce call for the score it returns: the smallest ply of a
   * position on the line that a refused (repeating) move in its subtree repeated, BEFORE_ROOT for
   * one of the game before the search, or NO_DEPENDENCY.
   */
  private dependency = NO_DEPENDENCY;

  /**
   * Forgets everything learnt (scores, moves, ordering memory): a new game begins. A search of a
   * game that does not continue the last one searched does this by itself.
   */
  newGame(): void {
    this.tt.clear();
    this.ttContext = '';
    this.killers.length = 0;
    for (const scores of this.historyScores) scores.fill(0);
    this.lastGame = null;
  }

  search(game: Game, limits: SearchLimits = {}): SearchResult {
    this.follow(game);
    const rootMoves = limits.rootMoves?.length ? [...limits.rootMoves] : [...gameLegalMoves(game)];
    this.nodes = 0;
    // Before the clock starts: the first search to use the table waits for it to be solved.
    this.endgame = limits.endgame && game.variant === 'bagh-chal' ? baghChalEndgame() : null;
    this.now = limits.now ?? (() => performance.now());
    // The goats' nodes and time by the phase: a move bound by either gets the same shape.
    const factor = limits.goatBudget ? goatBudgetFactor(game) : 1;
    this.deadline =
      limits.timeMs === undefined ? Number.POSITIVE_INFINITY : this.now() + limits.timeMs * factor;
    this.stopped = limits.stopped ?? NEVER;
    this.maxNodes =
      limits.maxNodes === undefined ? Number.POSITIVE_INFINITY : Math.round(limits.maxNodes * factor);
    this.reductions = limits.reductions ?? false;
    this.tableProbe =
      limits.tableProbe && game.variant === 'bagh-chal' && !game.options.multiJump ? limits.tableProbe : null;
    this.weights = weightsFor(game, limits);
    const context = `${game.variant} ${JSON.stringify(game.options)} ${JSON.stringify(this.weights)} ${this.endgame !== null} ${this.reductions} ${this.tableProbe !== null}`;
    if (context !== this.ttContext) this.tt.clear();
    this.ttContext = context;
    this.tt.nextSearch();
    this.killers.length = 0;
    for (const scores of this.historyScores) for (let k = 0; k < MOVE_KEYS; k++) scores[k]! /= 8;
    if (rootMoves.length === 0) return { move: null, score: 0, depth: 0, nodes: 0, rootScores: [] };

    const board = new SearchBoard(game.variant, game.options, game.position);
    this.enterLine(board, 0);
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
    // Where the goats' budget is shaped (max's goats of a game from the start) the search takes a
    // root move proved better in a depth the budget cut short; elsewhere it ends on the last full
    // depth (the tigers and locked starts measured no gain: README, issue 21).
    const partialDepths = factor !== 1;
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
        // The unfinished depth's first move (the last depth's best) was searched in full, and a
        // later one beat it: that one is better at this depth, a move the last depth ranked lower.
        const better = partialDepths ? this.partialBest : null;
        if (better !== null)
          completed = {
            move: better.move,
            score: better.score,
            depth: completed.depth,
            nodes: this.nodes,
            rootScores: [better, ...completed.rootScores.filter((s) => s.move !== better.move)],
          };
        break;
      }
    }
    return { ...completed, nodes: this.nodes };
  }

  /**
   * Keeps the table true for `game`: cleared for another game than the last searched, its scores
   * retired when the history R13 compares against has grown since.
   */
  private follow(game: Game): void {
    const last = this.lastGame;
    this.lastGame = game;
    if (last === null || !continues(last, game)) {
      this.newGame();
      this.lastGame = game;
      return;
    }
    const historyGrew =
      game.options.noRepeat && game.position.goatsInHand === 0 && game.moves.length !== last.moves.length;
    if (historyGrew) this.tt.newEpoch();
  }

  private searchRoot(
    board: SearchBoard,
    history: RepetitionTable,
    moves: readonly Move[],
    depth: number,
    exact: boolean,
  ) {
    this.partialBest = null;
    let first: number | null = null;
    // Equal scores keep the given order, so the TT-best move stays first.
    return scoreRootMoves(board, history, moves, -WIN_SCORE * 2, (alpha, move) => {
      const score = -this.negamax(
        board,
        history,
        depth - 1,
        -WIN_SCORE * 2,
        exact ? WIN_SCORE * 2 : -alpha + 1,
        1,
      );
      if (first === null) first = score;
      else if (score > first && score > (this.partialBest?.score ?? first))
        this.partialBest = { move, score };
      return score;
    });
  }

  /** In the depth being searched: a root move that beat the first one (the last depth's best). */
  private partialBest: { readonly move: Move; readonly score: number } | null = null;

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
    this.dependency = NO_DEPENDENCY;
    if (board.tigersHaveWon()) return board.goatToMove ? -(WIN_SCORE - ply) : WIN_SCORE - ply;
    const known = this.tableScore(board, ply);
    if (known !== null) return known;
    if (depth <= 0) return this.quiesce(board, history, alphaIn, beta, ply, 0);
    const tableValue = this.endgame?.valueOf(board);
    // A forced capture is searched on: how it plays out matters more than when it comes.
    if (tableValue !== undefined && tableValue <= 0) return this.endgameScore(board, tableValue);
    let alpha = alphaIn;
    const slot = this.tt.probe(board.hash);
    if (
      slot >= 0 &&
      this.tt.depth(slot) >= depth &&
      this.tt.hasScore(slot) &&
      this.lineOutOfReach(board, ply, this.tt.depth(slot) + MAX_QUIESCENCE_PLIES)
    ) {
      const stored = fromStored(this.tt.score(slot), ply);
      const flag = this.tt.flag(slot);
      if (flag === EXACT) return stored;
      if (flag === LOWER && stored >= beta) return stored;
      if (flag === UPPER && stored <= alpha) return stored;
    }
    this.enterLine(board, ply);
    let dependency = NO_DEPENDENCY;
    const moves = this.buffer(ply);
    const count = this.generate(board, moves, ply);
    this.order(moves, count, slot >= 0 ? this.tt.best(slot) : -1, ply, board.goatToMove);
    let best = -WIN_SCORE * 2;
    let bestKey = -1;
    let legal = 0;
    // Late quiet moves may be reduced; a goat's answer to a threat never is.
    const reducing = this.reductions && depth >= LMR_MIN_DEPTH;
    const ttBest = slot >= 0 ? this.tt.best(slot) : -1;
    const killer1 = this.killers[ply * 2] ?? -1;
    const killer2 = this.killers[ply * 2 + 1] ?? -1;
    const threat = reducing && board.goatToMove ? scanCaptures(board) : NO_CAPTURES;
    const threatened = threat.threatened;
    const landings = threat.landings;
    for (let i = 0; i < count; i++) {
      const m = moves[i]!;
      let reduction = 0;
      if (reducing && legal >= LMR_FIRST_MOVES && !this.isCapture(m, ply)) {
        const key = this.codeKey(m, ply);
        const answers =
          (m & 3) !== MOVE_OBJECT &&
          (((landings >>> ((m >>> 7) & 31)) | (threatened >>> ((m >>> 2) & 31))) & 1) !== 0;
        if (key !== ttBest && key !== killer1 && key !== killer2 && !answers)
          reduction = depth >= 6 && legal >= 2 * LMR_FIRST_MOVES ? 2 : 1;
      }
      this.makeCode(board, m, ply);
      if (board.repeats(history)) {
        dependency = Math.min(dependency, this.repeatedPly(board.hash, ply));
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
          if (reduction > 0) {
            score = -this.negamax(board, history, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
            dependency = Math.min(dependency, this.dependency);
          } else score = alpha + 1;
          if (score > alpha) score = -this.negamax(board, history, depth - 1, -alpha - 1, -alpha, ply + 1);
          if (score > alpha && score < beta) {
            dependency = Math.min(dependency, this.dependency);
            score = -this.negamax(board, history, depth - 1, -beta, -alpha, ply + 1);
          }
        }
        dependency = Math.min(dependency, this.dependency);
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
    this.dependency = dependency;
    // R15: no legal move, R13 included, loses.
    if (legal === 0) return -(WIN_SCORE - ply);
    // A score the line to this node shaped (a repetition of one of its positions) is not reused.
    const bound = best <= alphaIn ? UPPER : best >= beta ? LOWER : EXACT;
    const ownScore = dependency === BEFORE_ROOT || dependency >= ply;
    this.tt.store(board.hash, depth, ownScore ? bound : MOVE_ONLY, toStored(best, ply), bestKey);
    return best;
  }

  /**
   * The tablebase's score of a fresh sliding-phase node (see the top of this file), for the side
   * to move: a mate score at ply + the table's distance, or 0 for a draw; null where the table is
   * not trusted or has no value.
   */
  private tableScore(board: SearchBoard, ply: number): number | null {
    if (this.tableProbe === null || board.goatsInHand !== 0 || ply === 0) return null;
    if (board.noRepeat && this.lineMaterial[ply - 1] === board.goatsOnBoard) return null;
    const value = this.tableProbe(board.tigers, board.goatMask, board.goatsCaptured, board.goatToMove);
    if (value === undefined) return null;
    // Under R13 a table draw is a race for unrepeated moves the evaluation judges, not a 0.
    if (value === 0) return board.noRepeat ? null : 0;
    const plies = value - 1;
    return (plies & 1) === 1 ? WIN_SCORE - (ply + plies) : -(WIN_SCORE - (ply + plies));
  }

  private enterLine(board: SearchBoard, ply: number): void {
    this.line[ply] = board.hash;
    this.lineTigers[ply] = board.tigers;
    this.lineGoats[ply] = board.goatMask;
    this.lineMaterial[ply] = board.goatsOnBoard + board.goatsInHand * 64;
  }

  /**
   * Whether no position on the line before `ply` can recur within `reach` plies of the node: each
   * move moves one piece one line, so two positions differing on n points of one kind are n / 2
   * moves apart; captures and placements are never undone. Only then is the node's stored score
   * (searched with those positions free to play) its score here. Outside R13 nothing recurs.
   */
  private lineOutOfReach(board: SearchBoard, ply: number, reach: number): boolean {
    if (!board.noRepeat || board.goatsInHand > 0) return true;
    const material = board.goatsOnBoard;
    for (let q = ply - 1; q >= 1 && this.lineMaterial[q] === material; q--) {
      const apart =
        ((popcount(board.goatMask ^ this.lineGoats[q]!) + 1) >> 1) +
        ((popcount(board.tigers ^ this.lineTigers[q]!) + 1) >> 1);
      if (apart <= reach) return false;
    }
    return true;
  }

  /**
   * The ply of the position on the searched line that the position after a move from `ply`
   * repeats, or BEFORE_ROOT when it is one of the game's (the root included). Hashes alone decide:
   * a collision within one line only costs a stored score.
   */
  private repeatedPly(hash: number, ply: number): number {
    for (let q = ply - 1; q >= 1; q--) if (this.line[q] === hash) return q;
    return BEFORE_ROOT;
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
    this.dependency = NO_DEPENDENCY;
    if (board.tigersHaveWon()) return board.goatToMove ? -(WIN_SCORE - ply) : WIN_SCORE - ply;
    const known = qply > 0 ? this.tableScore(board, ply) : null;
    if (known !== null) return known;
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
    let dependency = NO_DEPENDENCY;
    this.enterLine(board, ply);
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
        dependency = Math.min(dependency, this.repeatedPly(board.hash, ply));
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
        dependency = Math.min(dependency, this.dependency);
      } finally {
        board.unrecord(history);
        board.unmakePacked(m);
      }
      if (score > best) best = score;
      if (score > alpha) alpha = score;
    }
    this.dependency = dependency;
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

/** Each side searches with its own view of the game (the goats' weights are tuned apart). */
export function weightsFor(game: Game, limits: SearchLimits = {}): Weights {
  return limits.weights ?? (game.position.toMove === 'goat' ? GOAT_WEIGHTS : DEFAULT_WEIGHTS);
}

/** Whether `next` is `last` played on: same rules, same start, and `last`'s moves first. */
function continues(last: Game, next: Game): boolean {
  if (last === next) return true;
  if (last.variant !== next.variant || last.moves.length > next.moves.length) return false;
  if (JSON.stringify([last.options, last.start]) !== JSON.stringify([next.options, next.start])) return false;
  return last.moves.every((move, i) => sameMove(move, next.moves[i]!));
}

/** A number naming a move for the TT (multi-jumps with the same ends share one: only ordering uses it). */
function moveKey(m: Move): number {
  if (m.kind === 'place') return m.to;
  if (m.kind === 'step') return 32 + m.from * 25 + m.to;
  return 1024 + m.from * 25 + m.path[m.path.length - 1]! + m.path.length * 625;
}
