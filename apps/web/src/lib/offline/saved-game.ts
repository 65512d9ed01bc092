/**
 * An offline game as it is kept in the browser: a RULES.md R42 game record, with two headers of
 * its own, `Player` (the side the person plays) and `Computer` (the computer's level). Reading
 * one back goes through the rules' record parser, so a stored value is never trusted.
 */
import { LEVELS, type Level } from '@bagh/engine';
import { type Game, makeRecord, parseRecord, type RecordResult, SIDES, type Side } from '@bagh/rules';

/** The localStorage key of the game in progress (or the last one played). */
export const SAVED_GAME_KEY = 'bagh:offline-game';

/** Far more than any game's record; a longer stored value is not even parsed. */
const MAX_RECORD_CHARS = 100_000;

export interface SavedGame {
  readonly game: Game;
  /** The side the person plays; the computer plays the other. */
  readonly player: Side;
  readonly level: Level;
  /** How the game ended: the rules' outcome, or a resignation; null while it goes on. */
  readonly result: RecordResult | null;
}

export function makeSavedGame(saved: SavedGame): string {
  return makeRecord(saved.game, {
    result: saved.result,
    headers: { Player: saved.player, Computer: saved.level },
  });
}

/**
 * The saved game in `text`, or null when it is not one: not a record the rules accept, a start
 * position of its own (offline games start from the variant's), or a missing or unknown
 * `Player` or `Computer` header.
 */
export function parseSavedGame(text: unknown): SavedGame | null {
  if (typeof text !== 'string' || text.length > MAX_RECORD_CHARS) return null;
  const parsed = parseRecord(text);
  if (!parsed.ok) return null;
  const { headers, game, result } = parsed.value;
  const player = SIDES.find((side) => side === headers.Player);
  const level = LEVELS.find((name) => name === headers.Computer);
  if (!player || !level || headers.Position !== undefined) return null;
  return { game, player, level, result };
}
