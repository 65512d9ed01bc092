import { describe, expect, it } from 'vitest';
import { createGame, type Game, legalMoves, play } from './game.js';
import { parsePosition } from './notation/position.js';
import { perft, perftGeneral } from './perft.js';
import type { Options, Variant } from './types.js';

const newGame = (variant: Variant, options: Partial<Options> = {}): Game => {
  const created = createGame(variant, options);
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
};

/**
 * RULES.md perft table (depths 1–5), extended to depth 6 by this engine and pinned here where it
 * stays under a million leaves; the deeper rows (tens of millions, and bagh-chal depth 7) are
 * checked by `pnpm bench`, so the suite stays quick on any machine.
 */
const TABLES: ReadonlyArray<[string, Variant, Partial<Options>, readonly number[]]> = [
  ['bagh-chal', 'bagh-chal', {}, [21, 252, 5_052, 68_204, 1_304_788]],
  ['bagh-guti', 'bagh-guti', {}, [13, 360, 3_298, 94_892, 720_656]],
  ['bagh-bandi', 'bagh-bandi', {}, [7, 100, 644, 9_336, 57_520, 872_592]],
  ['bagh-guti goatsFirst', 'bagh-guti', { goatsFirst: true }, [26, 326, 9_164, 81_072, 2_352_758]],
  ['bagh-bandi goatsFirst', 'bagh-bandi', { goatsFirst: true }, [16, 108, 1_576, 9_928, 149_662, 901_820]],
];

describe('perft (RULES.md table)', () => {
  for (const [name, variant, options, counts] of TABLES) {
    counts.forEach((count, i) => {
      it(`${name} depth ${i + 1} = ${count}`, () => {
        expect(perft(newGame(variant, options), i + 1)).toBe(count);
      });
    });
  }
});

describe('perft: object path agrees with the packed path', () => {
  for (const [name, variant, options] of TABLES) {
    it(name, () => {
      const game = newGame(variant, options);
      expect(perftGeneral(game, 4)).toBe(perft(game, 4));
    });
  }
});

describe('perft with options (R23 multiJump, R26 noRepeat), pinned', () => {
  it('bagh-guti multiJump', () => {
    // Depth 5 (4,452,084, the general path) is checked by `pnpm bench`.
    expect([1, 2, 3, 4].map((d) => perft(newGame('bagh-guti', { multiJump: true }), d))).toEqual([
      19, 516, 9_018, 254_882,
    ]);
  });
  it('bagh-bandi multiJump depth 6', () => {
    expect(perft(newGame('bagh-bandi', { multiJump: true }), 6)).toBe(987_552);
  });
  it('bagh-guti noRepeat matches plain play while nothing can repeat', () => {
    expect(perft(newGame('bagh-guti', { noRepeat: true }), 4)).toBe(94_892);
  });
});

describe('perft under R13 across the last placement', () => {
  // The position the last goat's placement makes can come back once the goats slide
  // (G@b3 a1-a2 b3-b2 a2-a1 b2-b3 would repeat it): perft must not count such lines.
  const start = parsePosition('T3T/5/2G2/5/T3T g 1 0');
  if (!start.ok) throw new Error(start.error.message);
  const game = createGame('bagh-chal', {}, start.value);
  if (!game.ok) throw new Error(game.error.message);

  it('counts what legalMoves and play allow, on both paths', () => {
    const byPlay = (g: Game, depth: number): number =>
      depth === 0
        ? 1
        : legalMoves(g).reduce((sum, move) => {
            const next = play(g, move);
            if (!next.ok) throw new Error(next.error.message);
            return sum + byPlay(next.value, depth - 1);
          }, 0);
    expect(perft(game.value, 5)).toBe(299_272);
    expect(byPlay(game.value, 5)).toBe(299_272);
    expect(perftGeneral(game.value, 5)).toBe(299_272);
  });
});
