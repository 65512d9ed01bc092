/**
 * How a game ends besides the rules' own outcomes (R30): the results a room (or an offline game)
 * declares, and when a game may still be aborted rather than resigned.
 */
import type { Game } from '../game.js';
import type { RecordResult } from '../notation/record.js';
import { type Outcome, opposite, type Side } from '../types.js';
import { lastMoveIndexOf } from './replay.js';

/** The reasons of results the rules do not decide (R14, R15 and R24 decide the rest). */
export const DECLARED_REASONS = ['resign', 'timeout', 'abandoned', 'aborted', 'agreement'] as const;
export type DeclaredReason = (typeof DECLARED_REASONS)[number];

/** A result a room or an offline game declares. */
export interface DeclaredResult extends RecordResult {
  readonly reason: DeclaredReason;
}

/** A game may be aborted (ended with no result) until both sides have moved. */
export const canAbort = (movesPlayed: number): boolean => movesPlayed < 2;

/**
 * Whether `side` may take back its last move (offline, against the computer; a finished game
 * goes on again): once it has moved, and not once a side's time ran out.
 */
export function canTakeBack(game: Game, side: Side, result: RecordResult | null): boolean {
  return lastMoveIndexOf(game, side) >= 0 && result?.reason !== 'timeout';
}

/** `side` resigned: the other side wins. */
export const resignation = (side: Side): DeclaredResult => ({ winner: opposite(side), reason: 'resign' });

/** `side`'s time ran out: the other side wins. */
export const timeout = (side: Side): DeclaredResult => ({ winner: opposite(side), reason: 'timeout' });

/** `claimant`'s opponent left the game: the claimant takes the win, or calls it a draw. */
export const abandonment = (claimant: Side, claim: 'win' | 'draw'): DeclaredResult => ({
  winner: claim === 'win' ? claimant : null,
  reason: 'abandoned',
});

/** Aborted before both sides moved: nobody wins. */
export const ABORTED: DeclaredResult = { winner: null, reason: 'aborted' };

/** A draw the players agreed. */
export const AGREED_DRAW: DeclaredResult = { winner: null, reason: 'agreement' };

/** The game's result: the rules' outcome, else the one declared (null while the game goes on). */
export function resultOf<R extends RecordResult>(game: Game, declared: R | null): Outcome | R | null {
  return game.outcome ?? declared;
}
