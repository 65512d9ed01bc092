/** What the lists of games (/live, /games) say of each: its clock and how far it went. */
import type { TimeControl } from '@bagh/protocol';
import { m } from '../../paraglide/messages.js';
import { digits } from '../i18n/i18n.svelte.js';

/** "5+3" (minutes + seconds a move), or untimed. */
export const controlText = (clock: TimeControl | null): string =>
  clock ? digits(`${clock.initialMs / 60_000}+${clock.incrementMs / 1000}`) : m.untimed();

/**
 * Its moves as the move list numbers them (a move is a turn of each side: its `plies` half-moves
 * make half as many, rounded up); "Moves: n" needs no plural.
 */
export const movesText = (plies: number): string =>
  m.live_moves({ count: digits(String(Math.ceil(plies / 2))) });
