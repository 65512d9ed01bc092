/**
 * The solver on reduced rule sets, against plain minimax over a game graph built by the rules
 * package's own move generator (SearchBoard.generateMoves), not the solver's bit tricks:
 * - "the tigers win at the first capture": tier 0 alone (265,650 boards per side to move);
 * - "the tigers win at the second capture": tier 1 solved alone, then tier 0 with its captures
 *   looked up in tier 1 — the cross-tier path (a capture's win waiting, a loss no quicker than the
 *   slowest capture, a capture into a draw) the real build takes four times.
 * The minimax is depth-limited minimax M_D for D = 0, 1, 2, … computed for every position at once
 * from M_{D−1} of its children (win in k: a child lost in k − 1, the least such k; loss in k:
 * every child won, k − 1 the greatest), until nothing changes; what stays undecided is a draw.
 * Every position's value and distance must equal the table's.
 */
import { POINT_COUNT, type Position, resolveOptions, SearchBoard } from '@bagh/rules';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../bot.js';
import { solveTier } from './solver.js';
import { TierSpace } from './space.js';

const OPTIONS = resolveOptions('bagh-chal');

interface Graph {
  /** children of position i: edges[starts[i]] … edges[starts[i + 1] − 1]; tier-1 children are ≥ 2^30. */
  readonly starts: Int32Array;
  readonly edges: Int32Array;
}
const UPPER = 1 << 30;

function positionOf(space: TierSpace, index: number): Position {
  const board = index >>> 1;
  const tigers = space.tigersOf(board);
  const goatMask = space.goatsOf(board);
  const goats = Array.from({ length: POINT_COUNT }, (_, p) => (goatMask >>> p) & 1);
  return { tigers, goats, toMove: index & 1 ? 'goat' : 'tiger', goatsInHand: 0, goatsCaptured: space.tier };
}

/** The tier's game graph by the rules' move generator; a capture goes to `captureTo`'s goats to move. */
function buildGraph(space: TierSpace, captureTo: TierSpace): Graph {
  const starts = new Int32Array(space.positions + 1);
  const edges: number[] = [];
  for (let index = 0; index < space.positions; index++) {
    starts[index] = edges.length;
    const board = new SearchBoard('bagh-chal', OPTIONS, positionOf(space, index));
    for (const move of board.generateMoves()) {
      board.make(move);
      const empty = board.emptyMask;
      if (board.goatsCaptured !== space.tier + (move.kind === 'jump' ? 1 : 0)) throw new Error('capture?');
      if (move.kind === 'jump') edges.push(UPPER + captureTo.boardIndex(board.tigers, empty) * 2 + 1);
      else edges.push(space.boardIndex(board.tigers, empty) * 2 + (board.goatToMove ? 1 : 0));
      board.unmake(move);
    }
  }
  starts[space.positions] = edges.length;
  return { starts, edges: Int32Array.from(edges) };
}

/**
 * Depth-limited minimax to its fixed point, in the table's code (0 draw, else distance + 1). A
 * capture leads into `upper` (the solved tier above), or wins the game when `upper` is null.
 */
function minimax(graph: Graph, upper: Uint16Array | null): Uint16Array {
  const positions = graph.starts.length - 1;
  let current = new Uint16Array(positions);
  for (let depth = 0; ; depth++) {
    const next = new Uint16Array(positions);
    let changed = false;
    for (let i = 0; i < positions; i++) {
      let bestWin = 0;
      let slowestLoss = 0;
      let undecided = false;
      for (let e = graph.starts[i]!; e < graph.starts[i + 1]!; e++) {
        const edge = graph.edges[e]!;
        const child = edge < UPPER ? current[edge]! : upper === null ? 1 : upper[edge - UPPER]!;
        if (child === 0) undecided = true;
        else if ((child - 1) % 2 === 0) {
          if (bestWin === 0 || child < bestWin) bestWin = child;
        } else slowestLoss = Math.max(slowestLoss, child);
      }
      // A child coded c is at distance c − 1: a move into it ends the game c plies from here.
      const value = bestWin !== 0 ? bestWin + 1 : undecided ? 0 : slowestLoss + 1;
      next[i] = value;
      if (value !== current[i]) changed = true;
    }
    current = next;
    if (!changed) return current;
    expect(depth).toBeLessThan(1000);
  }
}

describe('the retrograde solver on reduced rule sets, against plain minimax on the rules’ moves', () => {
  const tier0 = new TierSpace(0);
  let graph0: Graph;
  beforeAll(() => {
    graph0 = buildGraph(tier0, new TierSpace(1));
  }, 600_000);

  it('ranks every board of a tier and back (a perfect index)', () => {
    for (const tier of [0, 1, 4]) {
      const space = new TierSpace(tier);
      const random = seededRandom(tier + 1);
      for (let n = 0; n < 20_000; n++) {
        const board = Math.floor(random() * space.boards);
        const tigers = space.tigersOf(board);
        const empty = space.emptyOf(board);
        expect(tigers & empty).toBe(0);
        expect(popcountOf(empty)).toBe(tier + 1);
        expect(space.boardIndex(tigers, empty)).toBe(board);
      }
    }
    expect(tier0.positions).toBe(531_300);
  });

  it('tigers win at the first capture: every value and distance of tier 0 equal minimax', () => {
    const table = solveTier(0, null);
    const truth = minimax(graph0, null);
    expectSame(table, truth);
    // Not trivial: wins for both sides at several distances, and draws.
    const distances = new Set(Array.from(table));
    expect(distances.has(0)).toBe(true);
    expect(Math.max(...distances)).toBeGreaterThan(10);
  }, 600_000);

  it('tigers win at the second capture: tier 0 over a solved tier 1 equals minimax over the same tier 1', () => {
    const tier1 = solveTier(1, null);
    const table = solveTier(0, tier1);
    const truth = minimax(graph0, tier1);
    expectSame(table, truth);
    // The capture path decides values here that the first-capture rules do not.
    expect(table).not.toEqual(solveTier(0, null));
  }, 600_000);
});

function popcountOf(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
}

function expectSame(table: Uint16Array, truth: Uint16Array): void {
  expect(table.length).toBe(truth.length);
  const wrong: number[] = [];
  for (let i = 0; i < table.length && wrong.length < 5; i++) if (table[i] !== truth[i]) wrong.push(i);
  expect(wrong.map((i) => [i, table[i], truth[i]])).toEqual([]);
}
