/**
 * The race that decides Bagh Chal at the end of placement, solved exactly for analysis: will the
 * tigers take a goat, or will the goats trap them first? With no goat taken and at most
 * OUTLOOK_IN_HAND goats in hand, the last placements are searched move by move with the game's own
 * rules (the no-repeat rule included); from the full board on, the endgame table answers.
 */
import { type Game, legalMoves, type Move, play, SearchBoard } from '@bagh/rules';
import { baghChalEndgame, type EndgameTable, type EndgameValue } from './endgame.js';

/** Goats in hand up to which the race is solved: a few hundred positions at most. */
export const OUTLOOK_IN_HAND = 2;

export interface Outlook {
  /**
   * Tigers' view, as in the table: n > 0 they take a goat (or leave the goats no move) in n plies,
   * −n they are trapped, 0 neither.
   */
  readonly value: EndgameValue;
  /** A move that keeps to it: the fastest win, the slowest loss. */
  readonly move: Move;
}

/** The race's exact outlook from this position, or undefined when it is out of reach. */
export function endgameOutlook(game: Game, table?: EndgameTable): Outlook | undefined {
  const { position } = game;
  if (game.variant !== 'bagh-chal' || game.outcome) return undefined;
  if (position.goatsCaptured !== 0 || position.goatsInHand > OUTLOOK_IN_HAND) return undefined;
  // Solved only once a position is within reach (about 0.2 s, once per thread).
  return bestMove(game, table ?? baghChalEndgame());
}

function bestMove(game: Game, table: EndgameTable): Outlook | undefined {
  const tigers = game.position.toMove === 'tiger';
  let best: Outlook | undefined;
  for (const move of legalMoves(game)) {
    const next = play(game, move);
    if (!next.ok) continue;
    // Taking a goat reaches the tigers' goal; any other move is a ply further from the child's end.
    const value = next.value.position.goatsCaptured > 0 ? 1 : oneFurther(raceValue(next.value, table));
    if (value === undefined) return undefined;
    if (!best || preference(value, tigers) > preference(best.value, tigers)) best = { value, move };
  }
  return best;
}

/** A position with no goat taken: a finished game as the table counts it (R15), else looked up or searched. */
function raceValue(game: Game, table: EndgameTable): EndgameValue | undefined {
  if (game.outcome) return game.outcome.winner === 'tiger' ? 1 : -1;
  const stored = table.valueOf(new SearchBoard(game.variant, game.options, game.position));
  // Every goat placed yet not the table's board (a set-up with fewer tigers): out of reach.
  if (stored !== undefined || game.position.goatsInHand === 0) return stored;
  return bestMove(game, table)?.value;
}

function oneFurther(value: EndgameValue | undefined): EndgameValue | undefined {
  if (value === undefined) return undefined;
  return value > 0 ? value + 1 : value < 0 ? value - 1 : 0;
}

/** How much the side to move likes a value: a win soonest, then neither, then a loss latest. */
function preference(value: EndgameValue, tigers: boolean): number {
  const mine = tigers ? value : -value;
  return mine > 0 ? 1000 - mine : mine < 0 ? -1000 - mine : 0;
}
