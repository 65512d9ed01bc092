/**
 * A game named on a command line, `<variant> [--goats-first] [--multi-jump] [--no-repeat]
 * [--position "<position string>"] [move ...]`, for the tools that take one (the engine's `bot`
 * command): parsed, set up and played, or the message that says what is wrong with it.
 */
import { createGame, type Game, playMoveTexts } from './game.js';
import { parsePosition } from './notation/position.js';
import { err, type Options, ok, type Position, type Result, VARIANTS, type Variant } from './types.js';

export const GAME_ARGS_USAGE = `<variant> [--goats-first] [--multi-jump] [--no-repeat] [--position "<position string>"] [move ...]
variants: ${VARIANTS.join(', ')}`;

const FLAGS: Readonly<Record<string, keyof Options>> = {
  '--goats-first': 'goatsFirst',
  '--multi-jump': 'multiJump',
  '--no-repeat': 'noRepeat',
};

export interface GameArgs {
  /** The game after the moves; its history is theirs (R13). */
  readonly game: Game;
  readonly variant: Variant;
  readonly options: Partial<Options>;
  /** The --position string, if one was given. */
  readonly start: string | undefined;
  readonly moves: readonly string[];
}

export function parseGameArgs(args: readonly string[]): Result<GameArgs, string> {
  const [variantText, ...rest] = args;
  if (!(VARIANTS as readonly string[]).includes(variantText ?? ''))
    return err(`unknown variant '${variantText ?? ''}'`);
  const variant = variantText as Variant;
  const options: Partial<Record<keyof Options, boolean>> = {};
  let start: string | undefined;
  const moves: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const flag = FLAGS[arg];
    if (flag) options[flag] = true;
    else if (arg === '--position') {
      start = rest[++i];
      if (start === undefined) return err('--position needs a position string');
    } else if (arg.startsWith('--position=')) start = arg.slice('--position='.length);
    else if (arg.startsWith('--')) return err(`unknown option '${arg}'`);
    else moves.push(...arg.split(/\s+/).filter(Boolean));
  }
  let position: Position | undefined;
  if (start !== undefined) {
    const parsed = parsePosition(start);
    if (!parsed.ok) return err(`invalid position '${start}': ${parsed.error.message}`);
    position = parsed.value;
  }
  const created = createGame(variant, options, position);
  if (!created.ok) {
    const { code, message } = created.error;
    return err(code === 'ERR_OPTION' ? message : `invalid position '${start ?? ''}': ${message}`);
  }
  const played = playMoveTexts(created.value, moves);
  if (!played.ok) {
    const { index, move, message } = played.error;
    return err(`move ${index + 1} ('${move}') is illegal: ${message}`);
  }
  return ok({ game: played.value, variant, options, start, moves });
}
