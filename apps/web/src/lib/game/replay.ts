/** Going back in a game held in the browser: the same game as it stood after fewer moves. */
import { createGame, type Game, opposite, play, type Side } from '@bagh/rules';

/**
 * The game after its first `ply` moves, replayed with the rules from its start (the rules keep
 * no undo; a replay also rebuilds the repetition history, R13). `ply` is clamped to the game.
 */
export function gameAtPly(game: Game, ply: number): Game {
  const upTo = Math.max(0, Math.min(game.moves.length, ply));
  if (upTo === game.moves.length) return game;
  const started = createGame(game.variant, game.options, game.start);
  if (!started.ok) return game; // its own start was valid once: cannot happen
  let current = started.value;
  for (const move of game.moves.slice(0, upTo)) {
    const next = play(current, move);
    if (!next.ok) return current; // every move was played once: cannot happen
    current = next.value;
  }
  return current;
}

/** Who played the move at index `index` (0-based): the sides alternate from the start's. */
export function moverOf(game: Game, index: number): Side {
  return index % 2 === 0 ? game.start.toMove : opposite(game.start.toMove);
}
