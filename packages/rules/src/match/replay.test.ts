import { describe, expect, it } from 'vitest';
import { makeMove } from '../notation/move.js';
import { makePosition } from '../notation/position.js';
import { gameOf } from '../test-helpers.js';
import { gameAtPly, gameFromMoves, lastMoveIndexOf, moverOf } from './replay.js';

describe('gameFromMoves', () => {
  it('plays move texts from the variant’s start, or from a given one', () => {
    const game = gameFromMoves({ variant: 'bagh-chal', moves: ['G@c3', 'a1b2', 'c2'] });
    expect(game.ok && game.value.moves.map(makeMove)).toEqual(['G@c3', 'a1-b2', 'G@c2']);
    const from = gameFromMoves({ variant: 'bagh-chal', start: 'T3T/5/2G2/5/T3T t 19 0', moves: ['a1-b2'] });
    expect(from.ok && makePosition(from.value.position)).toBe('T3T/5/2G2/1T3/4T g 19 0');
    const parsed = gameOf('bagh-chal', [], {}, 'T3T/5/2G2/5/T3T t 19 0').start;
    const fromPosition = gameFromMoves({ variant: 'bagh-chal', start: parsed, moves: [] });
    expect(fromPosition.ok && fromPosition.value.start).toEqual(parsed);
  });

  it('names the move that does not play', () => {
    const game = gameFromMoves({ variant: 'bagh-chal', moves: ['G@c3', 'a1-b2', 'a5-b5', 'G@d4'] });
    expect(game.ok).toBe(false);
    if (game.ok) return;
    expect(game.error).toMatchObject({ stage: 'move', code: 'ERR_ILLEGAL_MOVE', index: 2, move: 'a5-b5' });
    expect(game.error.message).toBe(`move 3 (a5-b5): ${game.error.detail}`);
    const syntax = gameFromMoves({ variant: 'bagh-chal', moves: ['hello'] });
    expect(!syntax.ok && syntax.error).toMatchObject({ stage: 'move', code: 'ERR_MOVE_SYNTAX', index: 0 });
  });

  it('refuses a start position that does not read or does not fit, and an option the variant lacks', () => {
    const unread = gameFromMoves({ variant: 'bagh-chal', start: 'nonsense', moves: [] });
    expect(!unread.ok && unread.error).toMatchObject({ stage: 'position', code: 'ERR_POSITION_SYNTAX' });
    expect(!unread.ok && unread.error.message).toMatch(/^bad start position: /);
    const option = gameFromMoves({ variant: 'bagh-chal', options: { multiJump: true }, moves: [] });
    expect(!option.ok && option.error).toMatchObject({ stage: 'setup', code: 'ERR_OPTION' });
    expect(!option.ok && option.error.message).toMatch(/^cannot start bagh-chal: /);
  });
});

describe('going back in a game', () => {
  const game = gameOf('bagh-chal', ['G@c3', 'a1-b2', 'G@c2', 'b2-a1']);

  it('replays the first moves, clamped to the game', () => {
    expect(gameAtPly(game, 2).moves.map(makeMove)).toEqual(['G@c3', 'a1-b2']);
    expect(gameAtPly(game, -3).moves).toEqual([]);
    expect(gameAtPly(game, 99)).toBe(game);
  });

  it('says who made each move, and each side’s last', () => {
    expect([0, 1, 2].map((i) => moverOf(game, i))).toEqual(['goat', 'tiger', 'goat']);
    expect(lastMoveIndexOf(game, 'goat')).toBe(2);
    expect(lastMoveIndexOf(game, 'tiger')).toBe(3);
    expect(lastMoveIndexOf(gameAtPly(game, 0), 'goat')).toBe(-1);
    const guti = gameOf('bagh-guti', ['c3-c4']);
    expect(moverOf(guti, 0)).toBe('tiger');
  });
});
