#!/usr/bin/env node
/**
 * `pnpm -s bagh <command> …`, the one entry point of the `bagh` CLI: `bot` is the engine's
 * (runBotCommand), `solve` the sliding-phase tablebase's (tablebase-solve.ts), `perft`, `moves` and `status` are the rules' (runRulesCommand). It lives in the
 * engine because the engine depends on the rules, never the other way round; each command's
 * parsing, messages and exit codes are its package's pure function, this file only dispatches and
 * writes. An unknown command: exit 1 with the usage of them all.
 */
import { LEVELS, runBotCommand } from '@bagh/engine';
import { RULES_USAGE, runRulesCommand } from '@bagh/rules';
import { runSolveCommand, SOLVE_USAGE } from './tablebase-solve.js';

const USAGE = `${RULES_USAGE.replace('\n', '\n       bagh bot <level> <variant> [options] [--nodes N] [move ...]\n')}
       ${SOLVE_USAGE}
levels: ${LEVELS.join(', ')}`;

function runBagh(args: readonly string[]): { stdout: string; stderr: string; code: number } {
  const [command, ...rest] = args;
  if (command === 'bot') return runBotCommand(rest);
  if (command === 'solve') return runSolveCommand(rest);
  if (command === 'perft' || command === 'moves' || command === 'status') return runRulesCommand(args);
  return { stdout: '', stderr: `bagh: unknown command '${command ?? ''}'\n${USAGE}\n`, code: 1 };
}

const result = runBagh(process.argv.slice(2));
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.code;
