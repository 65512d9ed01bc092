import { makeMove } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { snapshotFixture } from '../test-fixtures.js';
import { boardModel, capturedText, errorText, numberedMoves, resultText } from './view.js';

const base = snapshotFixture({ spectators: 2 });

describe('view', () => {
  it('hints moves only to the side to move, and flips for the tiger player', () => {
    expect(boardModel(base, 'goat', false)?.moves).toHaveLength(21);
    expect(boardModel(base, 'goat', false)?.flipped).toBe(false);
    const tiger = boardModel(base, 'tiger', false)!;
    expect(tiger.moves).toHaveLength(0);
    expect(tiger.flipped).toBe(true);
    expect(boardModel(base, 'tiger', true)?.flipped).toBe(false);
    const watcher = boardModel(base, 'spectator', false)!;
    expect(watcher.viewOnly).toBe(true);
    expect(watcher.moves).toHaveLength(0);
  });

  it('reads the last move and Bagh Guti stacks', () => {
    const m = boardModel(
      {
        ...base,
        variant: 'bagh-guti',
        position: '2T2/1G(5)1G(5)1/2T2/1G(5)1G(5)1/5 t 0 0',
        toMove: 'tiger',
        goatsInHand: 0,
      },
      'tiger',
      false,
    )!;
    expect(m.goats.filter((g) => g === 5)).toHaveLength(4);
    expect(m.moves.map(makeMove)).toContain('c3-c2');
    const last = boardModel({ ...base, moves: ['G@c3'] }, 'goat', false)!;
    expect(last.lastMove && makeMove(last.lastMove)).toBe('G@c3');
  });

  it('formats counts, moves, results and errors', () => {
    expect(capturedText({ ...base, captured: 3 })).toBe('3/5');
    expect(capturedText({ ...base, variant: 'bagh-guti', captured: 3 })).toBe('3');
    expect(numberedMoves(['G@c3', 'a1-b2', 'G@d4'])).toEqual([
      { n: 1, moves: ['G@c3', 'a1-b2'] },
      { n: 2, moves: ['G@d4'] },
    ]);
    expect(resultText({ winner: 'tiger', reason: 'captures' })).toBe('Tigers win — enough goats captured');
    expect(errorText({ code: 'SEAT_TAKEN', message: 'x' })).toBe('That seat has just been taken.');
    expect(errorText({ code: 'WHATEVER', message: 'raw' })).toBe('raw');
  });
});
