import { GEOMETRIES, parsePosition, resolveOptions, SearchBoard } from '@bagh/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baghChalEndgame, EndgameTable } from './endgame.js';
import { crowdedPoints, crowdedPosition } from './test-helpers.js';

/** A Bagh Chal position with no goat in hand: four tigers, these empty points, goats elsewhere. */
function boardOf(tigers: number[], empty: number[], goatToMove: boolean): SearchBoard {
  const parsed = parsePosition(crowdedPosition(tigers, empty, goatToMove));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return new SearchBoard('bagh-chal', resolveOptions('bagh-chal'), parsed.value);
}

describe.each([
  { empty: 1, table: () => baghChalEndgame() },
  { empty: 2, table: () => new EndgameTable(GEOMETRIES.alquerque, 2) },
])('endgame table with $empty empty points', ({ empty, table: solve }) => {
  it('agrees with the rules one move on, and every win it claims gets nearer with each move', () => {
    const table = solve();
    const probe = (board: SearchBoard): number =>
      table.probe(board.tigers, board.emptyMask, board.goatToMove);
    // Consistent at every position and well-founded (a win's distance falls along the winning
    // line), the table is the game's exact value by induction on that distance.
    fc.assert(
      fc.property(crowdedPoints(empty), ({ points, goatToMove }) => {
        const board = boardOf(points.slice(0, 4), points.slice(4), goatToMove);
        expect(table.valueOf(board)).toBe(probe(board));
        const value = probe(board);
        const moves = board.generateMoves();
        const captures = moves.some((m) => m.kind === 'jump');
        const next = moves
          .filter((m) => m.kind !== 'jump')
          .map((m) => {
            board.make(m);
            const child = probe(board);
            board.unmake(m);
            return child;
          });
        const mover = board.goatToMove ? -1 : 1; // values are the tigers' view
        const forMover = (v: number) => v * mover;
        if (captures) return value === 1;
        if (moves.length === 0) return forMover(value) === -1;
        const wins = next.filter((v) => forMover(v) > 0);
        if (wins.length > 0) return forMover(value) > 0 && wins.some((v) => Math.abs(v) < Math.abs(value));
        if (next.every((v) => forMover(v) < 0))
          return forMover(value) < 0 && next.every((v) => Math.abs(v) < Math.abs(value));
        return value === 0;
      }),
      { numRuns: 3000 },
    );
  });
});

describe('endgame table with one empty point', () => {
  it('knows the tigers trapped, the goats blocked and a capture into the empty point', () => {
    // a1 b1 a2 b2 hold tigers; e5 is empty and no tiger can reach it.
    const tigersInCorner = 0b1 | 0b10 | (1 << 5) | (1 << 6);
    expect(baghChalEndgame().probe(tigersInCorner, 1 << 24, false)).toBe(-1);
    // Tigers on every point beside the empty a1 (a2 b1 b2) and e5: the goats cannot move.
    const aroundCorner = 0b10 | (1 << 5) | (1 << 6) | (1 << 24);
    expect(baghChalEndgame().probe(aroundCorner, 1, true)).toBe(1);
    // The tiger on c1 jumps the goat on b1 into the empty a1.
    const besideJump = (1 << 2) | (1 << 12) | (1 << 20) | (1 << 24);
    expect(baghChalEndgame().probe(besideJump, 1, false)).toBe(1);
  });
});
