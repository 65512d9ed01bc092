/**
 * Clock arithmetic of a room, pure. Kept apart so that the shared match layer (packages/rules)
 * can replace it.
 */
import type { Clock as ClockState, Side } from '@bagh/rules';
import { otherSide, type RoomState } from './state.js';

export type Remaining = { readonly [S in Side]: number };

/** Each side's remaining ms at `at` (the running clock counted down, never below 0). */
export function remainingAt(clock: ClockState, at: number): { tiger: number; goat: number } {
  const left = { ...clock.remaining };
  if (clock.running !== null)
    left[clock.running] = Math.max(0, left[clock.running] - Math.max(0, at - clock.since));
  return left;
}

/** When the running clock reaches 0 (epoch ms), or null when no clock runs. */
export function flagAt(state: RoomState): number | null {
  const clock = state.clock;
  if (!clock || clock.running === null || state.result !== null) return null;
  return clock.since + clock.remaining[clock.running];
}

/** Whether the running side's time is out at `at`. */
export function flagDue(state: RoomState, at: number): boolean {
  const due = flagAt(state);
  return due !== null && at >= due;
}

/** The mover's remaining ms after moving at `at`: the time it ran deducted, the increment added; the first move is free. */
export function msAfterMove(clock: ClockState, side: Side, at: number): number {
  return clock.running === side
    ? remainingAt(clock, at)[side] + clock.control.incrementMs
    : clock.remaining[side];
}

/** The clocks after `side` moved at `at` and kept `ms`: the other side's runs, unless the game is over. */
export function clockAfterMove(
  clock: ClockState,
  side: Side,
  at: number,
  ms: number,
  over: boolean,
): ClockState {
  return {
    ...clock,
    remaining: { ...clock.remaining, [side]: ms },
    running: over ? null : otherSide(side),
    since: at,
  };
}

/** The clocks as they stop at `at` (at 0 for a side whose time ran out). */
export function stoppedAt(clock: ClockState, at: number, flagged: boolean): Remaining {
  const stopped = remainingAt(clock, at);
  return flagged && clock.running ? { ...stopped, [clock.running]: 0 } : stopped;
}
