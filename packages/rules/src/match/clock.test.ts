import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gameOf } from '../test-helpers.js';
import { SIDES, type Side } from '../types.js';
import {
  type Clock,
  clockAfterMove,
  clockReadingAt,
  flagAt,
  flagDue,
  flaggedSide,
  moverTimeAfterMove,
  remainingAt,
  resumeClock,
  runningSide,
  startClock,
  stopClock,
  stopClockWith,
  withMoverTime,
} from './clock.js';

const control = { initialMs: 60_000, incrementMs: 2_000 };

describe('match clocks (the server’s semantics)', () => {
  it('start full and stopped: no clock runs before the first move', () => {
    const start = startClock(control, 1_000);
    expect(start).toEqual({
      control,
      remaining: { tiger: 60_000, goat: 60_000 },
      running: null,
      since: 1_000,
    });
    expect(remainingAt(start, 500_000)).toEqual({ tiger: 60_000, goat: 60_000 });
    expect(flagAt(start)).toBeNull();
    expect(flagDue(start, 10 ** 9)).toBe(false);
  });

  it('let the first move go free, then deduct each move’s time and add the increment', () => {
    const start = startClock(control, 1_000);
    const goatMoved = clockAfterMove(start, 'goat', 9_000); // the first move: free, no increment
    expect(clockReadingAt(goatMoved, 9_000)).toEqual({ tiger: 60_000, goat: 60_000, running: 'tiger' });
    expect(goatMoved.since).toBe(9_000);
    const tigerMoved = clockAfterMove(goatMoved, 'tiger', 14_000);
    expect(clockReadingAt(tigerMoved, 14_000)).toEqual({ tiger: 57_000, goat: 60_000, running: 'goat' });
    expect(remainingAt(tigerMoved, 24_000)).toEqual({ tiger: 57_000, goat: 50_000 });
    expect(moverTimeAfterMove(tigerMoved, 'goat', 24_000)).toBe(52_000);
  });

  it('run no clock after the move that ends the game', () => {
    const running = clockAfterMove(startClock(control, 0), 'goat', 0);
    const over = clockAfterMove(running, 'tiger', 1_000, { over: true });
    expect(over.running).toBeNull();
    expect(remainingAt(over, 99_000)).toEqual({ tiger: 61_000, goat: 60_000 });
  });

  it('run the next clock from when the move is shown (`resumesAt`)', () => {
    const running = clockAfterMove(startClock(control, 0), 'goat', 0);
    const shown = clockAfterMove(running, 'tiger', 1_000, { resumesAt: 1_300 });
    expect(shown.remaining.tiger).toBe(61_000);
    expect(shown.since).toBe(1_300);
    expect(remainingAt(shown, 2_300).goat).toBe(59_000);
  });

  it('run the side to move’s clock once a game has begun and while it goes on', () => {
    expect(runningSide(gameOf('bagh-chal'), null)).toBeNull();
    expect(runningSide(gameOf('bagh-chal', ['G@c3']), null)).toBe('tiger');
    expect(runningSide(gameOf('bagh-chal', ['G@c3']), { winner: 'goat', reason: 'resign' })).toBeNull();
  });

  it('replay a stored move time exactly (`withMoverTime`)', () => {
    const running = clockAfterMove(startClock(control, 0), 'goat', 0);
    expect(withMoverTime(running, 'tiger', 12_345, 7_000, false)).toEqual({
      control,
      remaining: { tiger: 12_345, goat: 60_000 },
      running: 'goat',
      since: 7_000,
    });
  });

  it('flag the running side when its time is out, never counting below zero', () => {
    const running = clockAfterMove(startClock(control, 0), 'goat', 0);
    expect(flagAt(running)).toBe(60_000);
    expect(flaggedSide(running, 59_999)).toBeNull();
    expect(flaggedSide(running, 60_000)).toBe('tiger');
    expect(remainingAt(running, 90_000).tiger).toBe(0);
  });

  it('stop where they are, and run again for a side from a new instant (a take-back, a reload)', () => {
    const running = clockAfterMove(startClock(control, 0), 'goat', 0);
    const stopped = stopClock(running, 10_000);
    expect(stopped.running).toBeNull();
    expect(stopped.since).toBe(running.since); // as the server keeps it
    expect(remainingAt(stopped, 500_000)).toEqual({ tiger: 50_000, goat: 60_000 });
    expect(flagDue(stopped, 500_000)).toBe(false);
    expect(stopClockWith(running, { tiger: 1, goat: 2 })).toEqual({
      ...running,
      remaining: { tiger: 1, goat: 2 },
      running: null,
    });
    const again = resumeClock(stopped, 'goat', 600_000);
    expect(remainingAt(again, 605_000)).toEqual({ tiger: 50_000, goat: 55_000 });
  });
});

/** A clock after a random game: moves at increasing times, alternating sides. */
const side = fc.constantFrom<Side>(...SIDES);
const anyControl = fc.record({
  initialMs: fc.integer({ min: 100, max: 3 * 3_600_000 }),
  incrementMs: fc.nat(600_000),
});
const gaps = fc.array(fc.nat(200_000), { maxLength: 30 });

function played(
  control: Clock['control'],
  first: Side,
  moveGaps: readonly number[],
): { clock: Clock; at: number } {
  let clock = startClock(control, 0);
  let at = 0;
  let mover = first;
  for (const gap of moveGaps) {
    at += gap;
    if (flagDue(clock, at)) break;
    clock = clockAfterMove(clock, mover, at);
    mover = mover === 'tiger' ? 'goat' : 'tiger';
  }
  return { clock, at };
}

describe('match clock properties', () => {
  it('never shows a negative time', () => {
    fc.assert(
      fc.property(anyControl, side, gaps, fc.nat(10 ** 7), (c, first, g, later) => {
        const { clock, at } = played(c, first, g);
        const left = remainingAt(clock, at + later);
        expect(left.tiger).toBeGreaterThanOrEqual(0);
        expect(left.goat).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('counts the running side down and never up; the other side stays', () => {
    fc.assert(
      fc.property(anyControl, side, gaps, fc.nat(10 ** 6), fc.nat(10 ** 6), (c, first, g, d1, d2) => {
        const { clock, at } = played(c, first, g);
        const a = remainingAt(clock, at + d1);
        const b = remainingAt(clock, at + d1 + d2);
        for (const s of SIDES) {
          if (s === clock.running) expect(b[s]).toBeLessThanOrEqual(a[s]);
          else expect(b[s]).toBe(a[s]);
        }
      }),
    );
  });

  it('adds the increment exactly once per move made while the mover’s clock ran', () => {
    fc.assert(
      fc.property(anyControl, side, gaps, fc.nat(200_000), (c, first, g, think) => {
        const { clock, at } = played(c, first, g);
        const mover = clock.running;
        if (mover === null || flagDue(clock, at + think)) return;
        const after = clockAfterMove(clock, mover, at + think);
        expect(after.remaining[mover]).toBe(remainingAt(clock, at + think)[mover] + c.incrementMs);
        expect(after.remaining[mover === 'tiger' ? 'goat' : 'tiger']).toBe(
          clock.remaining[mover === 'tiger' ? 'goat' : 'tiger'],
        );
      }),
    );
  });

  it('is flagged exactly when the running side has no time left, and then stops at 0', () => {
    fc.assert(
      fc.property(anyControl, side, gaps, fc.nat(10 ** 7), (c, first, g, later) => {
        const { clock, at } = played(c, first, g);
        const t = at + later;
        const running = clock.running;
        if (running === null) return;
        expect(flagDue(clock, t)).toBe(remainingAt(clock, t)[running] === 0);
        if (flagDue(clock, t)) expect(stopClock(clock, t).remaining[running]).toBe(0);
      }),
    );
  });
});
