/**
 * UCT Monte-Carlo tree search on the rules' mutable board, measured against the alpha-beta
 * `Searcher` by `mcts-bench.ts`. The tree is walked with make/unmake, and the game's R13 history
 * is extended along the tree path and every playout exactly as `search.ts` does: a move that
 * repeats a position is not legal, and a side with no legal move loses (R15); the tigers win by
 * captures as `tigersHaveWon()` says. A solver marks positions whose result is proven (a move that
 * wins at once, or every move losing), so a won capture is played and a lost move avoided.
 *
 * A new leaf is scored by `evaluateForTigers` (after the tigers' best capture when they are to
 * move) through a sigmoid centred on the root's evaluation, optionally after a playout of
 * `playoutPlies` plies by a cheap heuristic policy (tigers take a capture when they have one;
 * goats prefer a move after which no goat can be taken). Selection mixes each child's mean with
 * the minimax value of the leaf scores below it (implicit minimax backups). The defaults are the
 * best of the variants `mcts-bench.ts` compared: no playout (0 plies) beat 8- and 30-ply playouts
 * at equal time, and the minimax weight 0.5 beat 0 and 1 at equal iterations.
 * Everything random comes from the injected `random`, so a run on an iteration budget replays
 * exactly.
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
import { evaluateForTigers } from './evaluate.js';

export interface MctsLimits {
  /** Iterations (one tree descent and one playout each); default 10,000 when no time is given. */
  readonly iterations?: number;
  /** Stop after this many milliseconds (checked every few iterations). */
  readonly timeMs?: number;
  /** Source of time; injectable so tests can count instead of measure. */
  readonly now?: () => number;
  /** Plies a playout runs before the evaluation scores it (0: the new leaf is scored at once). */
  readonly playoutPlies?: number;
  /** UCT exploration constant. */
  readonly exploration?: number;
  /** Evaluation units per unit of the sigmoid that turns a score into a tigers' win chance. */
  readonly evalScale?: number;
  /** How many goat moves a playout tries before it accepts one that leaves a goat to be taken. */
  readonly goatTries?: number;
  /** Probability that a playout tiger takes a capture it has (otherwise any move at random). */
  readonly tigerCapture?: number;
  /**
   * Implicit minimax backups (Lanctot et al. 2014): the weight, 0..1, of a node's minimax value
   * over the evaluations of the leaves below it, beside its mean playout result, in selection.
   */
  readonly minimaxWeight?: number;
  /** Score a leaf after the tigers' best capture when they are to move (a one-ply quiescence). */
  readonly leafCaptures?: boolean;
}

export const MCTS_DEFAULTS = {
  iterations: 10_000,
  playoutPlies: 0,
  exploration: 0.3,
  evalScale: 120,
  goatTries: 4,
  tigerCapture: 1,
  minimaxWeight: 0.5,
  leafCaptures: true,
} as const;

export interface MctsChild {
  readonly move: Move;
  readonly visits: number;
  /** The mover's mean result, 0..1. */
  readonly value: number;
  /** 1: proven win for the mover, -1: proven loss, 0: unknown. */
  readonly proven: number;
}

export interface MctsResult {
  readonly move: Move | null;
  /** Visits of the chosen move. */
  readonly visits: number;
  readonly iterations: number;
  /** The side to move's expected result with the chosen move, 0..1. */
  readonly value: number;
  /** Every expanded root move, most visited first. */
  readonly children: readonly MctsChild[];
}

/** A packed move, or a move object when multi-jumps make packed moves too narrow. */
type TreeMove = number | Move;

interface Node {
  readonly move: TreeMove | null;
  readonly parent: Node | null;
  /** Did the tigers make the move that led here? Values are kept from the mover's point of view. */
  readonly tigerMoved: boolean;
  /** The legal moves from here, R13 applied; the first `children.length` are expanded. */
  readonly moves: readonly TreeMove[];
  readonly children: Node[];
  visits: number;
  wins: number;
  /** 1: the mover wins with best play from here, -1: the mover loses, 0: unknown. */
  proven: number;
  /** The mover's minimax value of the evaluated leaves below (implicit minimax), 0..1. */
  minimax: number;
}

const PLACE = 0;
const JUMP = 2;
const TIME_CHECK_MASK = 15;

function makeTreeMove(board: SearchBoard, m: TreeMove): void {
  if (typeof m === 'number') board.makePacked(m);
  else board.make(m);
}

function unmakeTreeMove(board: SearchBoard, m: TreeMove): void {
  if (typeof m === 'number') board.unmakePacked(m);
  else board.unmake(m);
}

function toMove(m: TreeMove): Move {
  if (typeof m !== 'number') return m;
  const kind = m & 3;
  const from = (m >>> 2) & 31;
  const to = (m >>> 7) & 31;
  if (kind === PLACE) return { kind: 'place', to };
  if (kind === JUMP) return { kind: 'jump', from, path: [to] };
  return { kind: 'step', from, to };
}

/** Can the tigers capture in this position (whoever is to move)? */
function tigersCanCapture(board: SearchBoard): boolean {
  const { jumpCount, jumpOver, jumpLand } = board.geometry;
  const empty = board.emptyMask;
  const goats = board.goatMask;
  for (let tg = board.tigers; tg !== 0; tg &= tg - 1) {
    const from = 31 - Math.clz32(tg & -tg);
    const jumps = jumpCount[from]!;
    for (let i = 0; i < jumps; i++) {
      if (((goats >>> jumpOver[from * 8 + i]!) & (empty >>> jumpLand[from * 8 + i]!) & 1) !== 0) return true;
    }
  }
  return false;
}

class Mcts {
  private readonly buffer = new Int32Array(MAX_MOVES);
  private readonly line: Int32Array;
  private readonly playoutPlies: number;
  private readonly exploration: number;
  private readonly evalScale: number;
  private readonly goatTries: number;
  private readonly tigerCapture: number;
  private readonly minimaxWeight: number;
  private readonly leafCaptures: boolean;
  private centre = 0;

  constructor(
    private readonly board: SearchBoard,
    private readonly history: RepetitionTable,
    private readonly random: () => number,
    limits: MctsLimits,
  ) {
    this.playoutPlies = limits.playoutPlies ?? MCTS_DEFAULTS.playoutPlies;
    this.exploration = limits.exploration ?? MCTS_DEFAULTS.exploration;
    this.evalScale = limits.evalScale ?? MCTS_DEFAULTS.evalScale;
    this.goatTries = limits.goatTries ?? MCTS_DEFAULTS.goatTries;
    this.tigerCapture = limits.tigerCapture ?? MCTS_DEFAULTS.tigerCapture;
    this.minimaxWeight = limits.minimaxWeight ?? MCTS_DEFAULTS.minimaxWeight;
    this.leafCaptures = limits.leafCaptures ?? MCTS_DEFAULTS.leafCaptures;
    this.line = new Int32Array(Math.max(this.playoutPlies, 1));
  }

  run(game: Game, limits: MctsLimits): MctsResult {
    const { board } = this;
    const now = limits.now ?? (() => performance.now());
    const deadline = limits.timeMs === undefined ? Number.POSITIVE_INFINITY : now() + limits.timeMs;
    const maxIterations =
      limits.iterations ??
      (limits.timeMs === undefined ? MCTS_DEFAULTS.iterations : Number.POSITIVE_INFINITY);
    this.centre = evaluateForTigers(board);
    const root: Node = {
      move: null,
      parent: null,
      tigerMoved: board.goatToMove,
      moves: this.orderedMoves(board.multiJump ? [...gameLegalMoves(game)] : this.legalPacked()),
      children: [],
      visits: 0,
      wins: 0,
      proven: 0,
      minimax: 0.5,
    };
    let iterations = 0;
    while (iterations < maxIterations && root.proven === 0) {
      if ((iterations & TIME_CHECK_MASK) === 0 && iterations > 0 && now() >= deadline) break;
      this.iterate(root);
      iterations++;
    }
    return this.result(root, iterations);
  }

  private result(root: Node, iterations: number): MctsResult {
    const children = [...root.children].sort((a, b) => b.visits - a.visits || b.wins - a.wins);
    const winning = children.find((c) => c.proven === 1);
    const best =
      winning ?? children.find((c) => c.proven !== -1) ?? (children.length > 0 ? children[0] : undefined);
    const stats = children.map((c) => ({
      move: toMove(c.move!),
      visits: c.visits,
      value: c.visits > 0 ? c.wins / c.visits : 0.5,
      proven: c.proven,
    }));
    if (!best) {
      const first = root.moves[0];
      return {
        move: first === undefined ? null : toMove(first),
        visits: 0,
        iterations,
        value: 0.5,
        children: stats,
      };
    }
    return {
      move: toMove(best.move!),
      visits: best.visits,
      iterations,
      value: best.proven !== 0 ? (best.proven + 1) / 2 : best.wins / Math.max(best.visits, 1),
      children: stats,
    };
  }

  /** One iteration: descend by UCT, expand one move, play out, back the result up. */
  private iterate(root: Node): void {
    const { board, history } = this;
    let node = root;
    let forTigers: number;
    for (;;) {
      if (node.proven !== 0) {
        forTigers = (node.proven === 1) === node.tigerMoved ? 1 : 0;
        break;
      }
      if (node.children.length < node.moves.length) {
        const move = node.moves[node.children.length]!;
        makeTreeMove(board, move);
        board.record(history);
        const child = this.createNode(node, move);
        node.children.push(child);
        node = child;
        if (child.proven !== 0) forTigers = (child.proven === 1) === child.tigerMoved ? 1 : 0;
        else if (this.playoutPlies === 0) forTigers = child.tigerMoved ? child.minimax : 1 - child.minimax;
        else forTigers = this.playout();
        break;
      }
      node = this.select(node);
      makeTreeMove(board, node.move!);
      board.record(history);
    }
    const leaf = node;
    // Back up the result, and the solver's proofs as far as they reach.
    for (let n: Node | null = leaf; n !== null; n = n.parent) {
      n.visits++;
      n.wins += n.tigerMoved ? forTigers : 1 - forTigers;
    }
    if (this.minimaxWeight > 0) {
      for (let n = leaf.parent; n !== null; n = n.parent) {
        let best = 0;
        for (const c of n.children) if (c.minimax > best) best = c.minimax;
        n.minimax = 1 - best;
      }
    }
    for (let c: Node = leaf; c.proven !== 0 && c.parent !== null && c.parent.proven === 0; c = c.parent) {
      const p: Node = c.parent;
      if (c.proven === 1) p.proven = -1;
      else if (p.children.length === p.moves.length && p.children.every((x) => x.proven === -1)) p.proven = 1;
      else break;
    }
    for (let n: Node = leaf; n.parent !== null; n = n.parent) {
      board.unrecord(history);
      unmakeTreeMove(board, n.move!);
    }
  }

  private select(node: Node): Node {
    const logN = Math.log(node.visits);
    let best: Node | undefined;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const child of node.children) {
      if (child.proven === -1) continue;
      const mean = child.wins / child.visits;
      const score =
        mean +
        this.minimaxWeight * (child.minimax - mean) +
        this.exploration * Math.sqrt(logN / child.visits);
      if (score > bestScore) {
        bestScore = score;
        best = child;
      }
    }
    // Every child is a proven loss only when the node is proven, and proven nodes are not entered.
    return best ?? node.children[0]!;
  }

  /** The node reached by `move`, which has just been made and recorded. */
  private createNode(parent: Node, move: TreeMove): Node {
    const { board } = this;
    const tigerMoved = board.goatToMove;
    if (board.tigersHaveWon()) {
      return {
        move,
        parent,
        tigerMoved,
        moves: [],
        children: [],
        visits: 0,
        wins: 0,
        proven: tigerMoved ? 1 : -1,
        minimax: tigerMoved ? 1 : 0,
      };
    }
    const moves = this.orderedMoves(board.multiJump ? board.legalMoves(this.history) : this.legalPacked());
    // R15: the side to move with no legal move (R13 included) loses, so the mover has won.
    const proven = moves.length === 0 ? 1 : 0;
    const evaluate = proven === 0 && (this.minimaxWeight > 0 || this.playoutPlies === 0);
    const forTigers = evaluate ? this.leafValue() : 0.5;
    return {
      move,
      parent,
      tigerMoved,
      moves,
      children: [],
      visits: 0,
      wins: 0,
      proven,
      minimax: proven === 1 ? 1 : tigerMoved ? forTigers : 1 - forTigers,
    };
  }

  /** The legal single moves here as packed ints, R13 applied. */
  private legalPacked(): number[] {
    const { board, buffer, history } = this;
    const count = board.generatePacked(buffer, 0);
    const moves: number[] = [];
    for (let i = 0; i < count; i++) {
      const m = buffer[i]!;
      if (board.noRepeat) {
        board.makePacked(m);
        const repeats = board.repeats(history);
        board.unmakePacked(m);
        if (repeats) continue;
      }
      moves.push(m);
    }
    return moves;
  }

  /** Captures first, the rest shuffled, so expansion order carries no bias of the generator. */
  private orderedMoves(moves: TreeMove[]): TreeMove[] {
    for (let i = moves.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      const t = moves[i]!;
      moves[i] = moves[j]!;
      moves[j] = t;
    }
    const isJump = (m: TreeMove): boolean => (typeof m === 'number' ? (m & 3) === JUMP : m.kind === 'jump');
    return [...moves.filter(isJump), ...moves.filter((m) => !isJump(m))];
  }

  /**
   * The tigers' win chance by the evaluation: a sigmoid of its distance from the root's, after
   * the tigers' best capture when they are to move and `leafCaptures` is on.
   */
  private leafValue(): number {
    const { board, buffer } = this;
    let forTigers = evaluateForTigers(board);
    if (this.leafCaptures && !board.goatToMove) {
      const count = board.generatePacked(buffer, 0);
      for (let i = 0; i < count; i++) {
        const m = buffer[i]!;
        if ((m & 3) !== JUMP) continue;
        board.makePacked(m);
        const won = board.tigersHaveWon() || board.countPacked() === 0;
        const score = won ? Number.POSITIVE_INFINITY : evaluateForTigers(board);
        board.unmakePacked(m);
        if (score > forTigers) forTigers = score;
      }
    }
    return 1 / (1 + Math.exp((this.centre - forTigers) / this.evalScale));
  }

  /** Plays at most `playoutPlies` plies by the heuristic policy; returns the tigers' win chance. */
  private playout(): number {
    const { board, history, buffer, line, random } = this;
    let plies = 0;
    let forTigers = -1;
    while (forTigers < 0) {
      if (plies >= this.playoutPlies) {
        forTigers = this.leafValue();
        break;
      }
      let count = board.generatePacked(buffer, 0);
      const goat = board.goatToMove;
      if (!goat && random() < this.tigerCapture) {
        // Keep only the captures when there are any (a capture never repeats a position).
        let captures = 0;
        for (let i = 0; i < count; i++) {
          const m = buffer[i]!;
          if ((m & 3) === JUMP) buffer[captures++] = m;
        }
        if (captures > 0) count = captures;
      }
      let chosen = -1;
      let fallback = -1;
      let tries = goat ? this.goatTries : 0;
      while (count > 0) {
        const i = Math.floor(random() * count);
        const m = buffer[i]!;
        buffer[i] = buffer[--count]!;
        board.makePacked(m);
        if (board.repeats(history)) {
          board.unmakePacked(m);
          continue;
        }
        if (tries > 0 && count > 0 && tigersCanCapture(board)) {
          tries--;
          fallback = m;
          board.unmakePacked(m);
          continue;
        }
        chosen = m;
        break;
      }
      if (chosen < 0 && fallback >= 0) {
        chosen = fallback;
        board.makePacked(chosen);
      }
      if (chosen < 0) {
        // R15: no legal move, R13 included, loses.
        forTigers = goat ? 1 : 0;
        break;
      }
      board.record(history);
      line[plies++] = chosen;
      if (board.tigersHaveWon()) forTigers = 1;
    }
    for (let i = plies - 1; i >= 0; i--) {
      board.unrecord(history);
      board.unmakePacked(line[i]!);
    }
    return forTigers;
  }
}

/**
 * The MCTS player's move: null when the game is over. On an iteration budget the result depends
 * only on the game, the limits and `random`.
 */
export function mctsChooseMove(game: Game, limits: MctsLimits, random: () => number): MctsResult {
  if (game.outcome || gameLegalMoves(game).length === 0) {
    return { move: null, visits: 0, iterations: 0, value: 0, children: [] };
  }
  const board = new SearchBoard(game.variant, game.options, game.position);
  const history = historyOf(game).clone();
  return new Mcts(board, history, random, limits).run(game, limits);
}
