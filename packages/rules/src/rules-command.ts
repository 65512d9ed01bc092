/**
 * The rules' commands of the `bagh` CLI, as a pure function the CLI's entry point
 * (packages/engine/tools/bagh.ts, which adds the engine's `bot`) wires in:
 * `bagh perft|moves|status <variant> [--goats-first] [--multi-jump] [--no-repeat]
 *  [--position "<position string>"] [move ...]`. Exit code 1 with a message for bad input.
 */
import { createGame, type Game, legalMoves, playMoveTexts } from './game.js';
import { makeMove } from './notation/move.js';
import { makePosition, parsePosition } from './notation/position.js';
import { perft } from './perft.js';
import { type Options, type Position, VARIANTS, type Variant } from './types.js';

export const RULES_USAGE = `usage: bagh <perft <variant> <depth>|moves <variant>|status <variant>> [options] [move ...]
variants: ${VARIANTS.join(', ')}
options: --goats-first --multi-jump --no-repeat --position "<position string>"`;

const FLAGS: Readonly<Record<string, keyof Options>> = {
  '--goats-first': 'goatsFirst',
  '--multi-jump': 'multiJump',
  '--no-repeat': 'noRepeat',
};

class UsageError extends Error {}

function fail(message: string): never {
  throw new UsageError(message);
}

interface Invocation {
  readonly command: 'perft' | 'moves' | 'status';
  readonly variant: Variant;
  readonly depth: number;
  readonly game: Game;
  readonly moves: readonly string[];
}

function parseArgs(args: readonly string[]): Invocation {
  const [command, variantText, ...rest] = args;
  if (command !== 'perft' && command !== 'moves' && command !== 'status')
    fail(`unknown command '${command ?? ''}'`);
  if (!(VARIANTS as readonly string[]).includes(variantText ?? ''))
    fail(`unknown variant '${variantText ?? ''}'`);
  const variant = variantText as Variant;
  let depth = 0;
  if (command === 'perft') {
    const depthText = rest.shift() ?? '';
    if (!/^\d{1,2}$/.test(depthText)) fail(`depth must be a whole number, got '${depthText}'`);
    depth = Number(depthText);
  }
  const options: Partial<Record<keyof Options, boolean>> = {};
  let positionText: string | undefined;
  const moves: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const flag = FLAGS[arg];
    if (flag) options[flag] = true;
    else if (arg === '--position') {
      positionText = rest[++i];
      if (positionText === undefined) fail('--position needs a position string');
    } else if (arg.startsWith('--position=')) positionText = arg.slice('--position='.length);
    else if (arg.startsWith('--')) fail(`unknown option '${arg}'`);
    else moves.push(...arg.split(/\s+/).filter(Boolean));
  }
  let start: Position | undefined;
  if (positionText !== undefined) {
    const parsed = parsePosition(positionText);
    if (!parsed.ok) fail(`invalid position '${positionText}': ${parsed.error.message}`);
    start = parsed.value;
  }
  const created = createGame(variant, options, start);
  if (!created.ok) {
    fail(
      created.error.code === 'ERR_OPTION'
        ? created.error.message
        : `invalid position '${positionText ?? ''}': ${created.error.message}`,
    );
  }
  return { command, variant, depth, game: created.value, moves };
}

export interface RulesCommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: 0 | 1;
}

export function runRulesCommand(args: readonly string[]): RulesCommandResult {
  try {
    const invocation = parseArgs(args);
    const played = playMoveTexts(invocation.game, invocation.moves);
    if (!played.ok) {
      const { index, move, message } = played.error;
      fail(`move ${index + 1} ('${move}') is illegal: ${message}`);
    }
    const game = played.value;
    switch (invocation.command) {
      case 'perft':
        return { stdout: `${perft(game, invocation.depth)}\n`, stderr: '', code: 0 };
      case 'moves': {
        const texts = legalMoves(game).map(makeMove).sort();
        return { stdout: `${texts.join(' ')}\n`, stderr: '', code: 0 };
      }
      case 'status': {
        const status = game.outcome ? `${game.outcome.winner} ${game.outcome.reason}` : 'ongoing';
        return { stdout: `${status}\n${makePosition(game.position)}\n`, stderr: '', code: 0 };
      }
    }
  } catch (error) {
    if (error instanceof UsageError)
      return { stdout: '', stderr: `bagh: ${error.message}\n${RULES_USAGE}\n`, code: 1 };
    throw error;
  }
}
