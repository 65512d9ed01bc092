/**
 * `bagh solve "<position>"`: the table's value of a sliding-phase Bagh Chal position (a RULES.md
 * R41 string), then every legal move with its value, best first. The table is read from
 * TABLEBASE_DIR, else DATA_DIR/tablebase (DATA_DIR: ./data). Exit 2 when no table is built there,
 * 1 for a bad position or one outside the table. The values ignore R13 (no history is given).
 */
import { join } from 'node:path';
import { describeVerdict, Tablebase, TablebaseMissing, tableGame } from '@bagh/engine/tablebase';

export interface SolveResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

export const SOLVE_USAGE =
  'bagh solve "<position>"   (a sliding-phase Bagh Chal position; table in TABLEBASE_DIR)';

export function tablebaseDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TABLEBASE_DIR || join(env.DATA_DIR || './data', 'tablebase');
}

export function runSolveCommand(args: readonly string[], env: NodeJS.ProcessEnv = process.env): SolveResult {
  if (args.length !== 1 || args[0]!.trim() === '')
    return { stdout: '', stderr: `bagh: solve takes one position\nusage: ${SOLVE_USAGE}\n`, code: 1 };
  // A bad position is told as such, table or not.
  const game = tableGame(args[0]!);
  if (!game.ok) return { stdout: '', stderr: `bagh: ${game.error.message}\n`, code: 1 };
  let table: Tablebase;
  try {
    table = Tablebase.open(tablebaseDir(env));
  } catch (error) {
    if (error instanceof TablebaseMissing) return { stdout: '', stderr: `bagh: ${error.message}\n`, code: 2 };
    throw error;
  }
  try {
    const answer = table.analyse(game.value);
    if (!answer.ok) return { stdout: '', stderr: `bagh: ${answer.error.message}\n`, code: 1 };
    const lines = [
      describeVerdict(answer.value),
      ...answer.value.moves.map((m) => `${m.move} ${describeVerdict(m)}`),
    ];
    return { stdout: `${lines.join('\n')}\n`, stderr: '', code: 0 };
  } finally {
    table.close();
  }
}
