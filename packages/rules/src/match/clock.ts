/**
 * Game clocks as plain values: each side's time left, which clock runs and since when. Time is
 * always passed in (epoch ms, or any one scale); nothing here reads a clock. The semantics are
 * the server's: no clock runs before the first move, and that move is free; a later move deducts
 * the time its clock ran and adds the increment; a clock never counts below zero.
 */
import type { Game } from '../game.js';
import type { RecordResult } from '../notation/record.js';
import { opposite, type Side } from '../types.js';

/** Milliseconds each side starts with, and milliseconds added to a side's clock per move it makes. */
export interface TimeControl {
  readonly initialMs: number;
  readonly incrementMs: number;
}

export type SideTimes = { readonly [S in Side]: number };

/** What a clock's reading needs: the time left as of `since`, and the side whose clock runs. */
export interface ClockTimes {
  /** Each side's time left when the running clock started (`since`). */
  readonly remaining: SideTimes;
  /** The side whose clock runs; null before the first move and once the game is over. */
  readonly running: Side | null;
  readonly since: number;
}

export interface Clock extends ClockTimes {
  readonly control: TimeControl;
}

/** What a room's snapshot shows of a clock: each side's time left, and the running side. */
export interface ClockReading {
  readonly tiger: number;
  readonly goat: number;
  readonly running: Side | null;
}

/** A new game's clocks at `at`: full time each, none running (the first move starts them). */
export function startClock(control: TimeControl, at: number): Clock {
  return {
    control,
    remaining: { tiger: control.initialMs, goat: control.initialMs },
    running: null,
    since: at,
  };
}

/** Each side's time left at `at` (the running clock counted down, never below 0). */
export function remainingAt(clock: ClockTimes, at: number): { tiger: number; goat: number } {
  const left = { ...clock.remaining };
  if (clock.running !== null)
    left[clock.running] = Math.max(0, left[clock.running] - Math.max(0, at - clock.since));
  return left;
}

/** The clock's reading at `at`. */
export const clockReadingAt = (clock: ClockTimes, at: number): ClockReading => ({
  ...remainingAt(clock, at),
  running: clock.running,
});

/** When the running clock reaches 0, or null when no clock runs. */
export function flagAt(clock: ClockTimes): number | null {
  return clock.running === null ? null : clock.since + clock.remaining[clock.running];
}

/** Whether the running side's time is out at `at`. */
export function flagDue(clock: ClockTimes, at: number): boolean {
  const due = flagAt(clock);
  return due !== null && at >= due;
}

/** The side whose time is out at `at`, or null. */
export const flaggedSide = (clock: ClockTimes, at: number): Side | null =>
  flagDue(clock, at) ? clock.running : null;

/**
 * The mover's time left once its move at `at` is made: the time its clock ran deducted and the
 * increment added; the first move (no clock running yet) is free and earns no increment.
 */
export function moverTimeAfterMove(clock: Clock, mover: Side, at: number): number {
  return clock.running === mover
    ? remainingAt(clock, at)[mover] + clock.control.incrementMs
    : clock.remaining[mover];
}

/**
 * The clocks once `mover` has `ms` left after its move: the other side's clock runs from
 * `since`, or none once the move ended the game (`over`). A move stored with its `ms` replays
 * through this.
 */
export function withMoverTime(clock: Clock, mover: Side, ms: number, since: number, over: boolean): Clock {
  return {
    ...clock,
    remaining: { ...clock.remaining, [mover]: ms },
    running: over ? null : opposite(mover),
    since,
  };
}

/**
 * The clocks after `mover` moved at `at` (see `moverTimeAfterMove`). The other clock runs from
 * `resumesAt` (by default `at`; later when the move is shown later, so the pause is nobody's).
 */
export function clockAfterMove(
  clock: Clock,
  mover: Side,
  at: number,
  { over = false, resumesAt = at }: { readonly over?: boolean; readonly resumesAt?: number } = {},
): Clock {
  return withMoverTime(clock, mover, moverTimeAfterMove(clock, mover, at), resumesAt, over);
}

/** The clocks stopped with these times left (a result stored with its clocks replays through this). */
export function stopClockWith(clock: Clock, remaining: SideTimes): Clock {
  return { ...clock, remaining, running: null };
}

/**
 * The clocks stopped at `at` (the game ended): each side keeps its time left then (0 for a side
 * whose flag is due); none runs.
 */
export const stopClock = (clock: Clock, at: number): Clock => stopClockWith(clock, remainingAt(clock, at));

/**
 * The side whose clock runs in `game`: none before the first move (it is free), none once the
 * game is over (`result`); else the side to move.
 */
export function runningSide(game: Game, result: RecordResult | null): Side | null {
  return result || game.moves.length === 0 ? null : game.position.toMove;
}

/** The clocks with `side`'s running from `at` (after a take-back or a reload), or none (null). */
export function resumeClock(clock: Clock, side: Side | null, at: number): Clock {
  return { ...clock, remaining: remainingAt(clock, at), running: side, since: at };
}
