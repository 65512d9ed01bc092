/**
 * An offline game as it is kept in the browser: a RULES.md R42 game record, with headers of its
 * own: `Player` (the side the person plays), `Computer` (the computer's level) and, in a timed
 * game, `TimeControl` ("initialMs+incrementMs") and `Clocks` ("tigerMs goatMs", the time each side
 * had left when saved). Reading one back goes through the rules' record parser, strict patterns and
 * the protocol's time-control limits, so a stored value is never trusted. Plain code, no schema:
 * zod would be most of the offline page's download.
 */
import { LEVELS, type Level } from '@bagh/engine';
import type { TimeControl } from '@bagh/protocol';
import { MAX_RECORD_CHARS, TIME_CONTROL_LIMITS } from '@bagh/protocol/limits';
import { type Game, makeRecord, parseRecord, type RecordResult, SIDES, type Side } from '@bagh/rules';

/** The localStorage key of the game in progress (or the last one played). */
export const SAVED_GAME_KEY = 'bagh:offline-game';

export interface SavedGame {
  readonly game: Game;
  /** The side the person plays; the computer plays the other. */
  readonly player: Side;
  readonly level: Level;
  /** How the game ended: the rules' outcome, a resignation or a timeout; null while it goes on. */
  readonly result: RecordResult | null;
  /** A timed game's control and each side's time left; null: untimed. */
  readonly clock: SavedClock | null;
}

export interface SavedClock {
  readonly control: TimeControl;
  readonly remaining: { readonly tiger: number; readonly goat: number };
}

export function makeSavedGame(saved: SavedGame): string {
  const { clock } = saved;
  const timed: Record<string, string> = clock
    ? {
        TimeControl: `${clock.control.initialMs}+${clock.control.incrementMs}`,
        Clocks: `${Math.round(clock.remaining.tiger)} ${Math.round(clock.remaining.goat)}`,
      }
    : {};
  return makeRecord(saved.game, {
    result: saved.result,
    headers: { Player: saved.player, Computer: saved.level, ...timed },
  });
}

/**
 * The saved game in `text`, or null when it is not one: not a record the rules accept, a start
 * position of its own (offline games start from the variant's), or a missing or unknown
 * `Player` or `Computer` header.
 */
export function parseSavedGame(text: unknown): SavedGame | null {
  // A stored value longer than any record is not even parsed.
  if (typeof text !== 'string' || text.length > MAX_RECORD_CHARS) return null;
  const parsed = parseRecord(text);
  if (!parsed.ok) return null;
  const { headers, game, result } = parsed.value;
  const player = SIDES.find((side) => side === headers.Player);
  const level = LEVELS.find((name) => name === headers.Computer);
  if (!player || !level || headers.Position !== undefined) return null;
  if (headers.TimeControl === undefined && headers.Clocks === undefined)
    return { game, player, level, result, clock: null };
  const clock = savedClock(headers.TimeControl, headers.Clocks);
  return clock ? { game, player, level, result, clock } : null;
}

/** The patterns admit whole numbers only; the bounds are the protocol's. */
const within = (value: number, { min, max }: { readonly min: number; readonly max: number }): boolean =>
  value >= min && value <= max;

/**
 * "300000+3000" and "12000 250000", or null when either is not what `makeSavedGame` writes (at
 * most nine digits: no clock holds 12 days).
 */
function savedClock(control: string | undefined, clocks: string | undefined): SavedClock | null {
  const controlParts = /^(\d{1,9})\+(\d{1,9})$/.exec(control ?? '');
  const clockParts = /^(\d{1,9}) (\d{1,9})$/.exec(clocks ?? '');
  if (!controlParts || !clockParts) return null;
  const initialMs = +controlParts[1]!;
  const incrementMs = +controlParts[2]!;
  if (
    !within(initialMs, TIME_CONTROL_LIMITS.initialMs) ||
    !within(incrementMs, TIME_CONTROL_LIMITS.incrementMs)
  )
    return null;
  return {
    control: { initialMs, incrementMs },
    remaining: { tiger: +clockParts[1]!, goat: +clockParts[2]! },
  };
}
