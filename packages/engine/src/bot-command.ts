/**
 * The computer on the command line, as a pure function the `bagh` CLI wires in:
 * `bagh bot <level> <variant> [--goats-first --multi-jump --no-repeat --position "<pos>"]
 * [--nodes N] [move ...]` prints the computer's move for the position after the moves (the whole
 * history counts for R13) on its first line, then the depth, nodes and score. Exit code 1 for a bad
 * level, variant, option, position or move; 2 when the game is over. `--nodes N` fixes the search
 * size, so the answer is the same every run; without it the level's own limits (its clock) apply.
 */
import { GAME_ARGS_USAGE, makeMove, parseGameArgs } from '@bagh/rules';
import { chooseMove, seededRandom } from './bot.js';
import { LEVELS, type Level } from './levels.js';
import { Searcher } from './search.js';

export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: 0 | 1 | 2;
}

const USAGE = `usage: bagh bot <level> ${GAME_ARGS_USAGE.replace('\n', ' [--nodes N]\n')}
levels: ${LEVELS.join(', ')}`;

const failed = (message: string, code: 1 | 2 = 1): CommandResult => ({
  stdout: '',
  stderr: code === 1 ? `bagh: ${message}\n${USAGE}\n` : `bagh: ${message}\n`,
  code,
});

export function runBotCommand(args: readonly string[]): CommandResult {
  const [levelText, ...rest] = args;
  if (!(LEVELS as readonly string[]).includes(levelText ?? ''))
    return failed(`unknown level '${levelText ?? ''}'`);
  const level = levelText as Level;
  let nodes: number | undefined;
  const gameArgs: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg !== '--nodes' && !arg.startsWith('--nodes=')) {
      gameArgs.push(arg);
      continue;
    }
    const text = arg === '--nodes' ? rest[++i] : arg.slice('--nodes='.length);
    if (text === undefined || !/^[1-9]\d{0,9}$/.test(text))
      return failed(`--nodes needs a whole number of nodes, got '${text ?? ''}'`);
    nodes = Number(text);
  }
  const parsed = parseGameArgs(gameArgs);
  if (!parsed.ok) return failed(parsed.error);
  const { game } = parsed.value;
  if (game.outcome) return failed(`the game is over: ${game.outcome.winner} ${game.outcome.reason}`, 2);
  // On a node budget the clock plays no part, and the levels that err draw from a seed the game fixes.
  const limits = nodes === undefined ? {} : { maxNodes: nodes, timeMs: undefined };
  const choice = chooseMove(game, level, seededRandom(game.moves.length), new Searcher(), limits)!;
  return {
    stdout: `${makeMove(choice.move)}\ndepth ${choice.depth} nodes ${choice.nodes} score ${Math.round(choice.score)}\n`,
    stderr: '',
    code: 0,
  };
}
