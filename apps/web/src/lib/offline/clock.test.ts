import { describe, expect, it } from 'vitest';
import { afterMove, clockView, flagged, leftAt, newClock, runningFor } from './clock.js';

const control = { initialMs: 60_000, incrementMs: 2_000 };

describe('the offline game clock', () => {
  it('lets the first move go free, then deducts each move’s time and adds the increment', () => {
    const start = newClock(control, 1_000);
    expect(leftAt(start, 50_000)).toEqual({ tiger: 60_000, goat: 60_000 });
    const goatMoved = afterMove(start, 'goat', 9_000); // the first move: free, no increment
    expect(clockView(goatMoved)).toEqual({ tiger: 60_000, goat: 60_000, running: 'tiger' });
    const tigerMoved = afterMove(goatMoved, 'tiger', 14_000);
    expect(clockView(tigerMoved)).toEqual({ tiger: 57_000, goat: 60_000, running: 'goat' });
    expect(leftAt(tigerMoved, 24_000)).toEqual({ tiger: 57_000, goat: 50_000 });
  });

  it('says who ran out of time, never counting below zero', () => {
    const running = afterMove(newClock(control, 0), 'goat', 0);
    expect(flagged(running, 59_999)).toBeNull();
    expect(flagged(running, 60_000)).toBe('tiger');
    expect(leftAt(running, 90_000).tiger).toBe(0);
  });

  it('stops, and runs again for a side from a new instant (an undo, a reload)', () => {
    const running = afterMove(newClock(control, 0), 'goat', 0);
    const stopped = runningFor(running, null, 10_000);
    expect(leftAt(stopped, 500_000)).toEqual({ tiger: 50_000, goat: 60_000 });
    expect(flagged(stopped, 500_000)).toBeNull();
    const again = runningFor(stopped, 'goat', 600_000);
    expect(leftAt(again, 605_000)).toEqual({ tiger: 50_000, goat: 55_000 });
  });
});
