import { createGame, legalMoves, makeMove, playMoveTexts } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './bot.js';
import { mctsChooseMove } from './mcts.js';
import { gameAt } from './test-helpers.js';

describe('mcts', () => {
  it('takes the fifth goat when it can (R14), and knows it has won', () => {
    const game = gameAt('bagh-chal', 'T3T/5/5/1G3/T3T t 10 4');
    const result = mctsChooseMove(game, { iterations: 500 }, seededRandom(1));
    expect(makeMove(result.move!)).toBe('a1xc3');
    expect(result.value).toBe(1);
    // The win is proven at once, so the search stops early.
    expect(result.iterations).toBeLessThan(500);
  });

  it('as goats, covers a goat that would otherwise hang', () => {
    // The goat on b2 hangs to a1xc3 unless c3 is covered.
    const game = gameAt('bagh-chal', 'T3T/5/5/1G3/T3T g 19 0');
    for (const seed of [1, 2, 3]) {
      const result = mctsChooseMove(game, { iterations: 3_000 }, seededRandom(seed));
      expect(makeMove(result.move!)).toBe('G@c3');
    }
  });

  it('as goats, does not place a goat where it can be taken at once', () => {
    // Tigers a1 e1 a5 e5; a goat on b2 or d2 would hang only if the point beyond were empty.
    const game = gameAt('bagh-chal', 'T3T/5/2G2/5/T3T g 19 0');
    const result = mctsChooseMove(game, { iterations: 3_000 }, seededRandom(4));
    const after = playMoveTexts(game, [makeMove(result.move!)]);
    if (!after.ok) throw new Error(after.error.message);
    expect(legalMoves(after.value).some((m) => m.kind === 'jump')).toBe(false);
  });

  it('never returns a move the no-repeat rule (R13) forbids', () => {
    // d2-d1 would repeat the position after the tigers' a5-b5.
    const game = gameAt('bagh-chal', 'T4/5/5/5/3G1 t 0 0', ['a5-b5', 'd1-d2', 'b5-a5']);
    for (const seed of [1, 2, 3, 4, 5]) {
      const result = mctsChooseMove(game, { iterations: 400 }, seededRandom(seed));
      expect(legalMoves(game).map(makeMove)).toContain(makeMove(result.move!));
      expect(makeMove(result.move!)).not.toBe('d2-d1');
      for (const child of result.children) expect(makeMove(child.move)).not.toBe('d2-d1');
    }
  });

  it('wins by R13: a tiger whose only move repeats a position is trapped (R15)', () => {
    // After e2-e1 the tiger's only move, a5-a4, would recreate the start position.
    const game = gameAt('bagh-chal', '1GG2/TGG2/G1G2/G4/4G g 0 0', ['e1-e2', 'a4-a5']);
    const result = mctsChooseMove(game, { iterations: 2_000 }, seededRandom(6));
    expect(makeMove(result.move!)).toBe('e2-e1');
    expect(result.value).toBe(1);
  });

  it('respects its iteration budget and a time budget on an injected clock', () => {
    const created = createGame('bagh-chal');
    if (!created.ok) throw new Error('no game');
    const counted = mctsChooseMove(created.value, { iterations: 777 }, seededRandom(1));
    expect(counted.iterations).toBe(777);
    expect(counted.children.reduce((a, c) => a + c.visits, 0)).toBe(777);
    let clock = 0;
    const timed = mctsChooseMove(created.value, { timeMs: 100, now: () => (clock += 1) }, seededRandom(1));
    // The clock is read every 16 iterations: 100 ticks pass after about 1,600 of them.
    expect(timed.iterations).toBeGreaterThan(1_000);
    expect(timed.iterations).toBeLessThan(2_000);
  });

  it('is reproducible for a seed', () => {
    const game = gameAt('bagh-chal', 'T3T/1G1G1/2G2/1G1G1/T3T t 15 0');
    const a = mctsChooseMove(game, { iterations: 2_000 }, seededRandom(42));
    const b = mctsChooseMove(game, { iterations: 2_000 }, seededRandom(42));
    expect(makeMove(a.move!)).toBe(makeMove(b.move!));
    expect(a.children.map((c) => [makeMove(c.move), c.visits])).toEqual(
      b.children.map((c) => [makeMove(c.move), c.visits]),
    );
  });

  it('plays the other variants, multi-jumps included', () => {
    const created = createGame('bagh-guti', { multiJump: true, noRepeat: true });
    if (!created.ok) throw new Error('no game');
    const result = mctsChooseMove(created.value, { iterations: 500 }, seededRandom(3));
    expect(legalMoves(created.value).map(makeMove)).toContain(makeMove(result.move!));
  });

  it('returns no move when the game is over', () => {
    const over = gameAt('bagh-chal', 'TGG2/GG3/G1G2/5/5 t 0 0');
    expect(mctsChooseMove(over, { iterations: 100 }, seededRandom(1)).move).toBeNull();
  });
});
