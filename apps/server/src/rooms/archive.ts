/**
 * A finished room as the archive keeps it (storage/types.ts ArchivedGame): one compact row, its
 * moves as canonical texts in one string, its options as the names of those on.
 */
import { ArchivedGameView, BotLevel, Side, TimeControl } from '@bagh/protocol';
import { OPTION_NAMES, type Options } from '@bagh/rules';
import { z } from 'zod';
import type { ArchivedGame, GameSummary, RoomRecord } from '../storage/types.js';
import { botSeatOf, type RoomState } from './state.js';

/** The archive's `clock`: the time control and each side's time left as the game ended. */
const ArchivedClock = TimeControl.extend({ tiger: z.number(), goat: z.number() });
const ArchivedBot = z.object({ side: Side, level: BotLevel });

/** The options on, comma-separated: all options are booleans and every one is resolved. */
const encodeOptions = (options: Options): string => OPTION_NAMES.filter((name) => options[name]).join(',');

function decodeOptions(text: string): Record<string, boolean> {
  const on = new Set(text.split(','));
  return Object.fromEntries(OPTION_NAMES.map((name) => [name, on.has(name)]));
}

/** The archived game of a room with a result, finished at `finishedAt`; null for an imported record. */
export function archivedGameOf(state: RoomState, finishedAt = state.at): ArchivedGame | null {
  if (state.result === null || state.imported) return null;
  const bot = botSeatOf(state);
  const clock = state.clock;
  return {
    roomId: state.roomId,
    variant: state.variant,
    options: encodeOptions(state.options),
    start: null, // a room that is played starts where its variant does
    moves: state.moveTexts.join(' '),
    plies: state.moveTexts.length,
    winner: state.result.winner,
    reason: state.result.reason,
    clock: clock ? { ...clock.control, ...clock.remaining } : null,
    bot: bot ? { ...bot } : null,
    startedAt: state.createdAt,
    finishedAt,
  };
}

/** The game to archive with a change that took the room from `before` to `after`: when it gave the result. */
export const finishedBy = (before: RoomState, after: RoomState): ArchivedGame | undefined =>
  (before.result === null && archivedGameOf(after)) || undefined;

/**
 * When a stored room's game ended, as well as its record tells: the time of its result, else of
 * its last timed move, else its creation (an untimed game ended by its last move keeps no time).
 */
export function finishedAtOf(record: RoomRecord): number {
  for (let i = record.changes.length - 1; i >= 0; i--) {
    const { kind, data } = record.changes[i]!;
    if ((kind === 'result' || kind === 'move') && typeof data?.at === 'number') return data.at;
  }
  return record.createdAt;
}

/** How `GET /api/games` shows an archived game (checked: the row is the store's, parsed as any input). */
export function gameViewOf(game: GameSummary): ArchivedGameView {
  const clock = game.clock === null ? null : ArchivedClock.parse(game.clock);
  const bot = game.bot === null ? null : ArchivedBot.parse(game.bot);
  return ArchivedGameView.parse({
    roomId: game.roomId,
    variant: game.variant,
    options: decodeOptions(game.options),
    result: { winner: game.winner, reason: game.reason },
    moves: game.plies,
    startedAt: game.startedAt,
    finishedAt: game.finishedAt,
    timeControl: clock ? { initialMs: clock.initialMs, incrementMs: clock.incrementMs } : null,
    ...(bot ? { bots: { [bot.side]: bot.level } } : {}),
  });
}
