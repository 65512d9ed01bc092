/**
 * A game rebuilt from plain data: a variant, its options, a start position and move texts (a
 * room's record, an engine request, a snapshot), or an earlier point of a game held in memory.
 */
import { createGame, type Game, type PlayError, play, playMoveTexts } from '../game.js';
import { parsePosition } from '../notation/position.js';
import type { SetupErrorCode } from '../setup.js';
import {
  err,
  type Options,
  opposite,
  type Position,
  type Result,
  type RulesError,
  type Side,
  type Variant,
} from '../types.js';

/** A game as plain data: from `start` (absent: the variant's start) after `moves` (R40 texts). */
export interface GameSpec {
  readonly variant: Variant;
  readonly options?: Partial<Options> | undefined;
  /** A position, or its RULES.md string (R41). */
  readonly start?: Position | string | undefined;
  readonly moves: readonly string[];
}

/**
 * Why a spec does not make a game: its start position does not read (`position`), is not a
 * position of the variant or asks for an option it lacks (`setup`), or a move does not play
 * (`move`: `index` and `move` name it). `detail` is the rules' own message; `message` says where.
 */
export type GameSpecError =
  | (RulesError<'ERR_POSITION_SYNTAX'> & { readonly stage: 'position'; readonly detail: string })
  | (RulesError<SetupErrorCode> & { readonly stage: 'setup'; readonly detail: string })
  | (PlayError & {
      readonly stage: 'move';
      readonly detail: string;
      readonly index: number;
      readonly move: string;
    });

/** The game a spec describes, every move judged by the rules. */
export function gameFromMoves(spec: GameSpec): Result<Game, GameSpecError> {
  let start: Position | undefined;
  if (typeof spec.start === 'string') {
    const parsed = parsePosition(spec.start);
    if (!parsed.ok) {
      const { code, message } = parsed.error;
      return err({ code, stage: 'position', detail: message, message: `bad start position: ${message}` });
    }
    start = parsed.value;
  } else start = spec.start;
  const created = createGame(spec.variant, spec.options, start);
  if (!created.ok) {
    const { code, message } = created.error;
    return err({
      code,
      stage: 'setup',
      detail: message,
      message: `cannot start ${spec.variant}: ${message}`,
    });
  }
  const played = playMoveTexts(created.value, spec.moves);
  if (played.ok) return played;
  const { code, message, index, move } = played.error;
  return err({
    code,
    stage: 'move',
    detail: message,
    index,
    move,
    message: `move ${index + 1} (${move}): ${message}`,
  });
}

/**
 * The game after its first `ply` moves (clamped to the game), replayed from its start: the rules
 * keep no undo, and a replay also rebuilds the repetition history (R13).
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

/** Who played the move at `index` (0-based): the sides alternate from the start's. */
export function moverOf(game: Game, index: number): Side {
  return index % 2 === 0 ? game.start.toMove : opposite(game.start.toMove);
}

/** The index of `side`'s last move, or -1 when it has not moved. */
export function lastMoveIndexOf(game: Game, side: Side): number {
  for (let i = game.moves.length - 1; i >= 0; i--) if (moverOf(game, i) === side) return i;
  return -1;
}
