/**
 * The rules' commands of the `bagh` CLI, as a pure function the CLI's entry point
 * (packages/engine/tools/bagh.ts, which adds the engine's `bot`) wires in:
 * `bagh perft|moves|status <variant> [--goats-first] [--multi-jump] [--no-repeat]
 *  [--position "<position string>"] [move ...]`. Exit code 1 with a message for bad input.
 * The game is read by `parseGameArgs`, as `bagh bot` reads it.
 */
import { legalMoves } from './game.js';
import { parseGameArgs } from './game-args.js';
import { makeMove } from './notation/move.js';
import { makePosition } from './notation/position.js';
import { perft } from './perft.js';
import { VARIANTS } from './types.js';

export const RULES_USAGE = `usage: bagh <perft <variant> <depth>|moves <variant>|status <variant>> [options] [move ...]
variants: ${VARIANTS.join(', ')}
options: --goats-first --multi-jump --no-repeat --position "<position string>"`;

const COMMANDS = ['perft', 'moves', 'status'] as const;

export interface RulesCommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: 0 | 1;
}

const failed = (message: string): RulesCommandResult => ({
  stdout: '',
  stderr: `bagh: ${message}\n${RULES_USAGE}\n`,
  code: 1,
});

export function runRulesCommand(args: readonly string[]): RulesCommandResult {
  const [command, variantText, ...rest] = args;
  if (!(COMMANDS as readonly string[]).includes(command ?? ''))
    return failed(`unknown command '${command ?? ''}'`);
  let depth = 0;
  if (command === 'perft') {
    const depthText = rest.shift() ?? '';
    // An unknown variant is named first (parseGameArgs does), a bad depth before the rest.
    const known = (VARIANTS as readonly string[]).includes(variantText ?? '');
    if (known && !/^\d{1,2}$/.test(depthText))
      return failed(`depth must be a whole number, got '${depthText}'`);
    depth = Number(depthText);
  }
  const parsed = parseGameArgs([variantText ?? '', ...rest]);
  if (!parsed.ok) return failed(parsed.error);
  const { game } = parsed.value;
  switch (command) {
    case 'perft':
      return { stdout: `${perft(game, depth)}\n`, stderr: '', code: 0 };
    case 'moves': {
      const texts = legalMoves(game).map(makeMove).sort();
      return { stdout: `${texts.join(' ')}\n`, stderr: '', code: 0 };
    }
    default: {
      const status = game.outcome ? `${game.outcome.winner} ${game.outcome.reason}` : 'ongoing';
      return { stdout: `${status}\n${makePosition(game.position)}\n`, stderr: '', code: 0 };
    }
  }
}
