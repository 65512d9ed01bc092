/** Shared by the engine's tests: a game from a position string and some moves. */
import { createGame, type Game, parsePosition, playMoveTexts, type Variant } from '@bagh/rules';

export function gameAt(variant: Variant, position: string, moves: string[] = []): Game {
  const start = parsePosition(position);
  if (!start.ok) throw new Error(start.error.message);
  const created = createGame(variant, {}, start.value);
  if (!created.ok) throw new Error(created.error.message);
  const played = playMoveTexts(created.value, moves);
  if (!played.ok) throw new Error(played.error.message);
  return played.value;
}
