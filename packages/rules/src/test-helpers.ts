/** Shared helpers for the rules tests (not part of the package's API). */
import { createGame, type Game, legalMoves, playMoveTexts } from './game.js';
import { makeMove } from './notation/move.js';
import { parsePosition } from './notation/position.js';
import type { Options, Variant } from './types.js';

export function gameOf(
  variant: Variant,
  moves: readonly string[] = [],
  options: Partial<Options> = {},
  position?: string,
): Game {
  let start: ReturnType<typeof parsePosition> | undefined;
  if (position !== undefined) {
    start = parsePosition(position);
    if (!start.ok) throw new Error(start.error.message);
  }
  const created = createGame(variant, options, start?.ok ? start.value : undefined);
  if (!created.ok) throw new Error(created.error.message);
  const played = playMoveTexts(created.value, moves);
  if (!played.ok) throw new Error(`${played.error.move}: ${played.error.message}`);
  return played.value;
}

export const moveTexts = (game: Game): string[] => legalMoves(game).map(makeMove).sort();
