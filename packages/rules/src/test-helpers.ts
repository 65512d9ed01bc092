/** Shared helpers for the rules tests (not part of the package's API). */
import { type Game, legalMoves } from './game.js';
import { gameFromMoves } from './match/replay.js';
import { makeMove } from './notation/move.js';
import type { Options, Variant } from './types.js';

export function gameOf(
  variant: Variant,
  moves: readonly string[] = [],
  options: Partial<Options> = {},
  start?: string,
): Game {
  const game = gameFromMoves({ variant, options, start, moves });
  if (!game.ok) throw new Error(game.error.message);
  return game.value;
}

export const moveTexts = (game: Game): string[] => legalMoves(game).map(makeMove).sort();
