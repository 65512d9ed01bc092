/**
 * The clocks of a game against the computer, kept in the browser: pure functions of the clock and
 * the time now, judged as the server judges a room's (the first move is free; a move deducts the
 * time its clock ran and adds the increment; the side whose clock reaches zero loses on time).
 */
import type { ClockView, TimeControl } from '@bagh/protocol';
import { opposite, type Side } from '@bagh/rules';

export interface GameClock {
  readonly control: TimeControl;
  /** Each side's time left when the running clock started (`since`). */
  readonly remaining: { readonly tiger: number; readonly goat: number };
  /** The side whose clock runs; null before the first move and once the game is over. */
  readonly running: Side | null;
  readonly since: number;
}

export function newClock(control: TimeControl, now: number): GameClock {
  return {
    control,
    remaining: { tiger: control.initialMs, goat: control.initialMs },
    running: null,
    since: now,
  };
}

/** Each side's time left at `now`, never below zero. */
export function leftAt(clock: GameClock, now: number): { tiger: number; goat: number } {
  const { running, remaining } = clock;
  if (running === null) return { ...remaining };
  return { ...remaining, [running]: Math.max(0, remaining[running] - Math.max(0, now - clock.since)) };
}

/** The side whose time has run out at `now`, or null. */
export function flagged(clock: GameClock, now: number): Side | null {
  return clock.running !== null && leftAt(clock, now)[clock.running] <= 0 ? clock.running : null;
}

/**
 * After `mover` moved at `madeAt`: its time deducted (the first move is free), the increment
 * added; the other side's clock runs from `resumesAt` (when the move is shown), none once `over`.
 */
export function afterMove(
  clock: GameClock,
  mover: Side,
  madeAt: number,
  { resumesAt = madeAt, over = false }: { resumesAt?: number; over?: boolean } = {},
): GameClock {
  const left = leftAt(clock, madeAt);
  const mine = clock.running === mover ? left[mover] + clock.control.incrementMs : left[mover];
  const running = over ? null : opposite(mover);
  return { ...clock, remaining: { ...left, [mover]: mine }, running, since: resumesAt };
}

/** Stopped (`side` null: the game is over), or running again for `side` from `now` (after an undo, a reload). */
export function runningFor(clock: GameClock, side: Side | null, now: number): GameClock {
  return { ...clock, remaining: leftAt(clock, now), running: side, since: now };
}

/** As a room's snapshot shows its clocks, as of `clock.since`. */
export function clockView(clock: GameClock): ClockView {
  return { ...clock.remaining, running: clock.running };
}
