/**
 * The R13 race in a table draw (issue 20). The table ignores history, so a position it calls a
 * draw is, under R13, a race for unrepeated moves: every position may occur once, and the side
 * left with no legal move that keeps the draw must step into a table loss (or has no move at all,
 * R15). The table's wins and losses stay exact in such a game (the winner's line of falling
 * distances never meets the drawn positions the game went through), so the race is a game on the
 * table's draws alone, with the real history:
 * - a move into a table win for the mover ends it (won), a move into a table loss is never made;
 * - a side with no legal (R13) move into a table draw loses;
 * - past the horizon, each side's count of unrepeated drawing moves judges who is ahead (with the
 *   goats captured, and where the goats search, each side's safe toggles: `safeToggles`).
 * `RaceSearch` plays that game by alpha-beta, deepening on a node budget; no transposition table,
 * since every node's value depends on the line that reached it.
 */
import {
  type Game,
  historyOf,
  legalMoves,
  lowestPoint,
  MAX_MOVES,
  type Move,
  popcount,
  type RepetitionTable,
  SearchBoard,
  sameMove,
} from '@bagh/rules';
import { scoreRootMoves } from '../root-moves.js';
import type { BoardProbe } from './probe.js';

/** Scores beyond RACE_PROVEN are races won (or lost) within the horizon. */
export const RACE_WIN = 1_000_000;
export const RACE_PROVEN = RACE_WIN - 10_000;
const INFINITE = 2 * RACE_WIN;
/** A move's outcome for the side that made it, as far as the table alone tells. */
export const DRAW = 0;
export const WON = 1;
export const LOST = -1;

export interface RaceLimits {
  readonly maxNodes: number;
  /** Stop deepening after this many milliseconds too (checked every 1024 nodes); none in benches. */
  readonly timeMs?: number;
  readonly maxDepth?: number;
  /** What a goat captured is worth at the horizon, in drawing moves (to the tigers). */
  readonly captureWeight?: number;
  /**
   * What each of a side's safe toggles is worth at the horizon, in drawing moves (`safeToggles`):
   * a piece that can shuttle between two points the other side cannot reach answers every move.
   * Used where the goats search (the root is theirs); the tigers' search ignores it.
   */
  readonly toggleWeight?: number;
  /** The proof-number search first (oracle.ts): at most this many expansions; none when absent. */
  readonly proofExpansions?: number;
  /** The request's cancellation (a bot worker's), checked with the clock. */
  readonly stopped?: () => boolean;
}

/**
 * The bot workers' race: first the proof-number search (prover.ts, 20k expansions, at most 40% of
 * the time), then the race search, 150k nodes a move (with the prover, 150k lost 5 of 32 bench
 * games where 60k lost 7, README), at most 2 s in all; `max` does not search when the race names
 * its move. The goats' horizon counts safe toggles at 2 drawing moves each (the bench's goats over
 * 30 starts: 23-4-3 against 24-1-5 without, 25-1-4 at 1, 21-2-7 at 4; README).
 */
export const RACE_LIMITS: RaceLimits = {
  maxNodes: 150_000,
  timeMs: 2_000,
  captureWeight: 4,
  toggleWeight: 2,
  proofExpansions: 20_000,
};

export interface RaceResult {
  /** The moves that keep the table's draw (legal under R13), best first, each with its race score. */
  readonly scores: ReadonlyArray<{ readonly move: Move; readonly score: number }>;
  readonly depth: number;
  readonly nodes: number;
}

class OutOfBudget extends Error {}

export class RaceSearch {
  private nodes = 0;
  private maxNodes = 0;
  private deadline = Number.POSITIVE_INFINITY;
  private stopped: () => boolean = () => false;
  private captureWeight = 0;
  private toggleWeight = 0;
  private readonly buffers: Int32Array[] = [];
  /** Cut-offs per side and move (from, to): the order in which later nodes try their moves. */
  private readonly cutoffs = [new Float64Array(1024), new Float64Array(1024)];
  private readonly ranks = new Float64Array(MAX_MOVES);

  /** `winCaptures`: the capture that ends the game (5, R14; fewer in a reduced table). */
  constructor(
    private readonly probe: BoardProbe,
    private readonly winCaptures = 5,
  ) {}

  /**
   * The race from a Bagh Chal sliding-phase position the table calls a draw (null elsewhere, or
   * when no legal move keeps the draw). A move into a table win is a score of RACE_WIN.
   */
  search(game: Game, limits: RaceLimits, excluded: readonly Move[] = []): RaceResult | null {
    const board = raceBoard(game, this.probe);
    if (board === null) return null;
    const history = historyOf(game).clone();
    let drawing: Move[] = [];
    for (const move of legalMoves(game)) {
      board.make(move);
      const outcome = this.outcome(board);
      board.unmake(move);
      if (outcome === WON) return { scores: [{ move, score: RACE_WIN }], depth: 0, nodes: 0 };
      if (outcome === DRAW) drawing.push(move);
    }
    if (drawing.length === 0) return null;
    const kept = drawing.filter((move) => !excluded.some((other) => sameMove(move, other)));
    if (kept.length > 0) drawing = kept;
    this.nodes = 0;
    this.maxNodes = limits.maxNodes;
    this.deadline =
      limits.timeMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + limits.timeMs;
    this.stopped = limits.stopped ?? (() => false);
    this.captureWeight = limits.captureWeight ?? 0;
    // The goats' race only: the tigers' (25-0-0 in the bench without it) is left as it was.
    this.toggleWeight = board.goatToMove ? (limits.toggleWeight ?? 0) : 0;
    for (const table of this.cutoffs) table.fill(0);
    const rootToggles = this.toggleWeight === 0 ? 0 : this.rootToggles(board, history, drawing);
    let completed: RaceResult = { scores: drawing.map((move) => ({ move, score: 0 })), depth: 0, nodes: 0 };
    for (let depth = 1; depth <= (limits.maxDepth ?? 64); depth++) {
      try {
        const scores = this.searchRoot(board, history, completed.scores, depth, drawing.length, rootToggles);
        completed = { scores, depth, nodes: this.nodes };
      } catch (error) {
        if (!(error instanceof OutOfBudget)) throw error;
        break;
      }
      const best = completed.scores[0]!.score;
      if (best >= RACE_PROVEN || best <= -RACE_PROVEN) break;
    }
    return { ...completed, nodes: this.nodes };
  }

  /**
   * Each root move's score: exact for the best, an upper bound for the others (fail-soft), so a
   * score at or below −RACE_PROVEN is a race lost whatever the bound.
   */
  private searchRoot(
    board: SearchBoard,
    history: RepetitionTable,
    order: RaceResult['scores'],
    depth: number,
    rootDraws: number,
    rootToggles: number,
  ): Array<{ move: Move; score: number }> {
    return scoreRootMoves(
      board,
      history,
      order.map(({ move }) => move),
      -INFINITE,
      (alpha) => -this.negamax(board, history, depth - 1, -INFINITE, -alpha, 1, rootDraws, rootToggles),
    );
  }

  /** The root's safe toggles among its drawing moves (what its children's horizon compares). */
  private rootToggles(board: SearchBoard, history: RepetitionTable, drawing: readonly Move[]): number {
    const moves = new Int32Array(MAX_MOVES);
    const count = board.generatePacked(moves, 0);
    let draws = 0;
    for (let i = 0; i < count; i++) {
      const m = moves[i]!;
      board.makePacked(m);
      const keep = !board.repeats(history) && this.outcome(board) === DRAW;
      board.unmakePacked(m);
      if (keep) moves[draws++] = m;
    }
    return drawing.length === draws ? safeToggles(board, moves, draws) : 0;
  }

  /**
   * `rivalDraws`, `rivalToggles`: how many drawing moves and safe toggles the side that just moved
   * had (the horizon's measure; the toggles only where the children are the horizon).
   */
  private negamax(
    board: SearchBoard,
    history: RepetitionTable,
    depth: number,
    alphaIn: number,
    beta: number,
    ply: number,
    rivalDraws: number,
    rivalToggles: number,
  ): number {
    if (++this.nodes > this.maxNodes) throw new OutOfBudget();
    if ((this.nodes & 1023) === 0 && (performance.now() >= this.deadline || this.stopped()))
      throw new OutOfBudget();
    while (this.buffers.length <= ply) this.buffers.push(new Int32Array(MAX_MOVES));
    const moves = this.buffers[ply]!;
    const count = board.generatePacked(moves, 0);
    let draws = 0;
    let capture = 0;
    const captured = board.goatsCaptured;
    for (let i = 0; i < count; i++) {
      const m = moves[i]!;
      board.makePacked(m);
      const outcome = board.repeats(history) ? LOST : this.outcome(board);
      const jump = board.goatsCaptured > captured;
      board.unmakePacked(m);
      if (outcome === WON) return RACE_WIN - ply - 1;
      // The drawing moves are kept at the front of the buffer (i ≥ draws, so nothing is lost).
      if (outcome === DRAW) {
        moves[draws++] = m;
        if (jump) capture = 1;
      }
    }
    if (draws === 0) return -(RACE_WIN - ply);
    if (depth <= 0) {
      // A capture the tigers can make into a draw counts as made: the horizon must not hide it.
      const material = this.captureWeight * (captured + capture);
      const toggles =
        this.toggleWeight === 0 ? 0 : this.toggleWeight * (safeToggles(board, moves, draws) - rivalToggles);
      return draws - rivalDraws + toggles + (board.goatToMove ? -material : material);
    }
    const toggles = depth === 1 && this.toggleWeight !== 0 ? safeToggles(board, moves, draws) : 0;
    const cutoffs = this.cutoffs[board.goatToMove ? 1 : 0]!;
    this.order(moves, draws, cutoffs);
    let alpha = alphaIn;
    let best = -INFINITE;
    for (let i = 0; i < draws; i++) {
      const m = moves[i]!;
      board.makePacked(m);
      board.record(history);
      let score: number;
      try {
        score = -this.negamax(board, history, depth - 1, -beta, -alpha, ply + 1, draws, toggles);
      } finally {
        board.unrecord(history);
        board.unmakePacked(m);
      }
      if (score > best) best = score;
      if (score > alpha) alpha = score;
      if (alpha >= beta) {
        cutoffs[moveKey(m)]! += depth * depth;
        break;
      }
    }
    return best;
  }

  /** Insertion sort of the first `count` moves by their cut-offs, most first. */
  private order(moves: Int32Array, count: number, cutoffs: Float64Array): void {
    const ranks = this.ranks;
    for (let i = 0; i < count; i++) {
      const m = moves[i]!;
      const rank = cutoffs[moveKey(m)]!;
      let j = i;
      while (j > 0 && ranks[j - 1]! < rank) {
        moves[j] = moves[j - 1]!;
        ranks[j] = ranks[j - 1]!;
        j--;
      }
      moves[j] = m;
      ranks[j] = rank;
    }
  }

  private outcome(board: SearchBoard): number {
    return moveOutcome(board, this.probe, this.winCaptures);
  }
}

/** The board of a Bagh Chal sliding-phase position the table calls a draw, else null (no race). */
export function raceBoard(game: Game, probe: BoardProbe): SearchBoard | null {
  const { position } = game;
  if (game.variant !== 'bagh-chal' || game.outcome || game.options.multiJump || position.goatsInHand > 0)
    return null;
  const board = new SearchBoard(game.variant, game.options, position);
  return probe(board.tigers, board.goatMask, board.goatsCaptured, board.goatToMove) === 0 ? board : null;
}

/** What the move just made on `board` means for its maker by the table alone (WON, DRAW, LOST). */
export function moveOutcome(board: SearchBoard, probe: BoardProbe, winCaptures: number): number {
  if (board.tigersHaveWon() || board.goatsCaptured >= winCaptures) return WON;
  const value = probe(board.tigers, board.goatMask, board.goatsCaptured, board.goatToMove);
  if (value === undefined || value === 0) return DRAW;
  // The side to move now wins iff its distance (value − 1) is odd.
  return ((value - 1) & 1) === 1 ? LOST : WON;
}

/**
 * The side to move's safe toggles (issue 20's race horizon): of its first `count` packed moves
 * (drawing and unrepeated), how many pieces have a step that the other side cannot undo the use of
 * — a goat stepping between two points no tiger neighbours or can land on, a tiger stepping off a
 * point no goat neighbours — capped at 2. Such a piece shuttles back and forth, each time into a
 * position new under R13 while the other side's moves make new ones, so the count of drawing moves
 * alone (which sees one move) undervalues it.
 */
export function safeToggles(board: SearchBoard, moves: Int32Array, count: number): number {
  const { neighbours, jumpCount, jumpOver, jumpLand } = board.geometry;
  let reach = 0;
  if (board.goatToMove) {
    for (let t = board.tigers; t !== 0; t &= t - 1) {
      const p = lowestPoint(t);
      reach |= neighbours[p]!;
      for (let i = 0; i < jumpCount[p]!; i++)
        if (((board.goatMask >>> jumpOver[p * 8 + i]!) & 1) !== 0) reach |= 1 << jumpLand[p * 8 + i]!;
    }
  } else {
    for (let g = board.goatMask; g !== 0; g &= g - 1) reach |= neighbours[lowestPoint(g)]!;
  }
  let pieces = 0;
  for (let i = 0; i < count; i++) {
    const m = moves[i]!;
    if ((m & 3) !== STEP_KIND) continue;
    const from = (m >>> 2) & 31;
    const to = (m >>> 7) & 31;
    if (((reach >>> from) & 1) !== 0) continue;
    if (board.goatToMove && ((reach >>> to) & 1) !== 0) continue;
    pieces |= 1 << from;
  }
  return Math.min(2, popcount(pieces));
}

/** The rules' packed kind of a step (board.ts's STEP). */
const STEP_KIND = 1;

/** A packed move's (from, to) in 0..1023 (the rules' `kind | from << 2 | to << 7`). */
const moveKey = (m: number): number => (m >>> 2) & 1023;
