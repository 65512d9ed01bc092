import { describe, expect, it } from 'vitest';
import { gameOf } from '../test-helpers.js';
import {
  ABORTED,
  AGREED_DRAW,
  abandonment,
  canAbort,
  canTakeBack,
  resignation,
  resultOf,
  timeout,
} from './end.js';

describe('declared results', () => {
  it('lets a game be aborted until both sides have moved', () => {
    expect(canAbort(0)).toBe(true);
    expect(canAbort(1)).toBe(true);
    expect(canAbort(2)).toBe(false);
    expect(canAbort(40)).toBe(false);
  });

  it('gives the win to the other side on a resignation or a timeout', () => {
    expect(resignation('goat')).toEqual({ winner: 'tiger', reason: 'resign' });
    expect(timeout('tiger')).toEqual({ winner: 'goat', reason: 'timeout' });
  });

  it('gives an abandoned game to the claimant, or draws it', () => {
    expect(abandonment('goat', 'win')).toEqual({ winner: 'goat', reason: 'abandoned' });
    expect(abandonment('tiger', 'draw')).toEqual({ winner: null, reason: 'abandoned' });
    expect(ABORTED).toEqual({ winner: null, reason: 'aborted' });
    expect(AGREED_DRAW).toEqual({ winner: null, reason: 'agreement' });
  });

  it('lets a side take back its last move once it has moved, unless time ran out', () => {
    const game = gameOf('bagh-chal', ['G@c3']);
    expect(canTakeBack(game, 'goat', null)).toBe(true);
    expect(canTakeBack(game, 'tiger', null)).toBe(false);
    expect(canTakeBack(game, 'goat', resignation('goat'))).toBe(true);
    expect(canTakeBack(game, 'goat', timeout('tiger'))).toBe(false);
  });

  it('prefers the rules’ outcome to a declared result', () => {
    const going = gameOf('bagh-chal', ['G@c3']);
    expect(resultOf(going, null)).toBeNull();
    expect(resultOf(going, resignation('goat'))).toEqual({ winner: 'tiger', reason: 'resign' });
    // R14: 5 goats captured.
    const won = gameOf('bagh-chal', [], {}, 'T3T/5/5/5/T3T g 15 5');
    expect(resultOf(won, timeout('tiger'))).toEqual({ winner: 'tiger', reason: 'captures' });
  });
});
