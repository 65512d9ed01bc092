import {
  createGame,
  type Game,
  legalMoves,
  makeMove,
  parsePosition,
  play,
  playMoveTexts,
  type Variant,
} from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { chooseMove, LEVELS, Searcher, seededRandom, WIN_SCORE } from './index.js';

function gameAt(variant: Variant, position: string, moves: string[] = []): Game {
  const start = parsePosition(position);
  if (!start.ok) throw new Error(start.error.message);
  const created = createGame(variant, {}, start.value);
  if (!created.ok) throw new Error(created.error.message);
  const played = playMoveTexts(created.value, moves);
  if (!played.ok) throw new Error(played.error.message);
  return played.value;
}

describe('search', () => {
  it('takes the fifth goat when it can', () => {
    const game = gameAt('bagh-chal', 'T3T/5/5/1G3/T3T t 10 4');
    const result = new Searcher().search(game, { maxDepth: 3 });
    expect(makeMove(result.move!)).toBe('a1xc3');
    expect(result.score).toBeGreaterThan(WIN_SCORE - 10);
  });

  it('as goats, does not leave a goat to be taken when it need not', () => {
    // The goat on b2 hangs to a1xc3 unless c3 is covered.
    const game = gameAt('bagh-chal', 'T3T/5/5/1G3/T3T g 19 0');
    const result = new Searcher().search(game, { maxDepth: 2 });
    expect(makeMove(result.move!)).toBe('G@c3');
  });

  it('never proposes a move the rules forbid, R13 included', () => {
    const start = gameAt('bagh-chal', 'T4/5/5/5/3G1 t 0 0', ['a5-b5', 'd1-d2', 'b5-a5']);
    const result = new Searcher().search(start, { maxDepth: 4 });
    expect(legalMoves(start).map(makeMove)).toContain(makeMove(result.move!));
    expect(makeMove(result.move!)).not.toBe('d2-d1');
  });

  it('stops at its node budget and reports the depth it completed', () => {
    const created = createGame('bagh-guti');
    if (!created.ok) throw new Error('no game');
    const result = new Searcher().search(created.value, { maxNodes: 5_000 });
    expect(result.nodes).toBeLessThan(5_000 + 64); // the last node may still probe its captures
    expect(result.depth).toBeGreaterThanOrEqual(2);
  });

  it('returns no move when the game is over', () => {
    const over = gameAt('bagh-chal', 'TGG2/GG3/G1G2/5/5 t 0 0');
    expect(new Searcher().search(over).move).toBeNull();
  });
});

describe('levels', () => {
  it('every level plays only legal moves, reproducibly for a seed', { timeout: 60_000 }, () => {
    for (const level of LEVELS) {
      const created = createGame('bagh-chal');
      if (!created.ok) throw new Error('no game');
      let game = created.value;
      const seen: string[] = [];
      for (let ply = 0; ply < 4; ply++) {
        const choice = chooseMove(game, level, seededRandom(ply), new Searcher(), { maxNodes: 3_000 });
        expect(choice).not.toBeNull();
        const played = play(game, choice!.move);
        expect(played.ok).toBe(true);
        if (!played.ok) break;
        game = played.value;
        seen.push(makeMove(choice!.move));
      }
      let again = created.value;
      for (const [ply, text] of seen.entries()) {
        const choice = chooseMove(again, level, seededRandom(ply), new Searcher(), { maxNodes: 3_000 });
        expect(makeMove(choice!.move), level).toBe(text);
        const played = play(again, choice!.move);
        if (played.ok) again = played.value;
      }
    }
  });
});
