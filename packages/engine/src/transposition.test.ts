import { describe, expect, it } from 'vitest';
import { EXACT, LOWER, MOVE_ONLY, TranspositionTable, UPPER } from './transposition.js';

describe('transposition table', () => {
  it('answers a stored position with what was stored, and nothing for another', () => {
    const tt = new TranspositionTable(4);
    tt.store(0x1234_5671, 6, LOWER, -37.5, 99);
    const slot = tt.probe(0x1234_5671);
    expect(slot).toBeGreaterThanOrEqual(0);
    expect([tt.depth(slot), tt.flag(slot), tt.score(slot), tt.best(slot)]).toEqual([6, LOWER, -37.5, 99]);
    expect(tt.probe(0x1234_5672)).toBe(-1);
    // Same slot (low bits), other position: not an answer.
    expect(tt.probe(0x7234_5671)).toBe(-1);
  });

  it('in one search keeps the deeper of two positions sharing a slot; a new search may replace it', () => {
    const tt = new TranspositionTable(4);
    tt.store(0x10, 8, EXACT, 1, 1);
    tt.store(0x20, 3, UPPER, 2, 2);
    expect(tt.probe(0x20)).toBe(-1);
    expect(tt.score(tt.probe(0x10))).toBe(1);
    tt.nextSearch();
    expect(tt.probe(0x10)).toBeGreaterThanOrEqual(0);
    tt.store(0x20, 3, UPPER, 2, 2);
    expect(tt.probe(0x10)).toBe(-1);
    expect(tt.score(tt.probe(0x20))).toBe(2);
  });

  it('a position searched again replaces its own entry, deeper or not', () => {
    const tt = new TranspositionTable(4);
    tt.store(-5, 9, EXACT, 10, 1);
    tt.store(-5, 2, LOWER, 20, 2);
    expect(tt.depth(tt.probe(-5))).toBe(2);
  });

  it('forgets everything when cleared', () => {
    const tt = new TranspositionTable(4);
    tt.store(7, 1, EXACT, 0, 0);
    tt.clear();
    expect(tt.probe(7)).toBe(-1);
  });
});

describe('transposition table under the no-repeat rule', () => {
  it('a new epoch retires every score but keeps the moves for ordering', () => {
    const tt = new TranspositionTable(4);
    tt.store(7, 5, EXACT, 12, 42);
    expect(tt.hasScore(tt.probe(7))).toBe(true);
    tt.newEpoch();
    const slot = tt.probe(7);
    expect(tt.hasScore(slot)).toBe(false);
    expect(tt.best(slot)).toBe(42);
    tt.store(7, 5, LOWER, 3, 41);
    expect(tt.hasScore(tt.probe(7))).toBe(true);
  });

  it('a move-only entry orders but never answers with a score', () => {
    const tt = new TranspositionTable(4);
    tt.store(9, 8, MOVE_ONLY, 99_990, 17);
    const slot = tt.probe(9);
    expect(tt.best(slot)).toBe(17);
    expect(tt.hasScore(slot)).toBe(false);
  });
});
