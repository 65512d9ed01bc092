/**
 * Where a table side's game was lost (issue 20's diagnosis): replays a bench game from its start
 * (tools/tablebase-match.ts's numbering) and the moves of its BENCH_TB_TRACE=1 trace, then, from
 * the last move back, puts the position after each of the table side's moves to the race's prover
 * (REPLAY_EXPANSIONS, default 1M): the first move after which the race is proven lost for the
 * table side is where the game was lost. At that position it prints the prover's and the race
 * search's view (RACE_LIMITS, no clock) of every drawing move the table side had.
 *   TABLEBASE_DIR=… nice -n 10 node packages/engine/dist-tools/tablebase-replay.js <start> <tiger|goat> <trace file> [count]
 */
import { readFileSync } from 'node:fs';
import { blockProbe, RACE_LIMITS, RaceProver, RaceSearch, Tablebase } from '@bagh/engine/tablebase';
import { type Game, makeMove, makePosition, playMoveTexts } from '@bagh/rules';
import { drawnStarts } from './tablebase-match.js';

const [index, side, traceFile, count] = process.argv.slice(2);
const dir = process.env.TABLEBASE_DIR;
if (!dir || !index || !side || !traceFile) throw new Error('usage: see the comment at the top');
const expansions = Number(process.env.REPLAY_EXPANSIONS ?? 1_000_000);
const table = Tablebase.open(dir);
const probe = blockProbe(table);
const start = drawnStarts(table, Number(count ?? 16))[Number(index)]!;
// Trace lines: `    <ply> <side>[*] <move> <ms> ms …`.
const moves = readFileSync(traceFile, 'utf8')
  .split('\n')
  .map((line) => /^\s+\d+ (tiger|goat)\*? +(\S+) +\d+ ms/.exec(line)?.[2])
  .filter((m): m is string => m !== undefined);
const games: Game[] = [start];
for (const move of moves) {
  const next = playMoveTexts(games.at(-1)!, [move]);
  if (!next.ok) throw new Error(`${move}: ${next.error.message}`);
  games.push(next.value);
}
console.log(`start ${index}: ${makePosition(start.position)}, ${moves.length} plies replayed`);
const prover = new RaceProver(probe, table.winCaptures);
const race = new RaceSearch(probe, table.winCaptures);
/** After ply k (games[k + 1]) the table side has just moved: is its race proven lost? */
let earliest = -1;
let open = 0;
for (let k = moves.length - 1; k >= 0 && open < 4; k--) {
  if (games[k]!.position.toMove !== side) continue;
  const began = performance.now();
  const proof = prover.prove(games[k + 1]!, expansions);
  const ms = performance.now() - began;
  const status = proof === null ? 'no race' : proof.status === 'won' ? 'lost for it' : proof.status;
  console.log(
    `  after ply ${k} (${side}s' ${moves[k]}): ${status}${proof ? ` in ${proof.expansions} expansions` : ''}, ${ms.toFixed(0)} ms`,
  );
  if (proof?.status === 'won') {
    earliest = k;
    open = 0;
  } else if (proof !== null) open++;
}
if (earliest >= 0) {
  const before = games[earliest]!;
  console.log(
    `\nat ply ${earliest} (${makePosition(before.position)}), the ${side}s played ${moves[earliest]}:`,
  );
  const proof = prover.prove(before, expansions);
  console.log(
    `  prover ${expansions}: ${proof?.status} (${proof?.expansions}); ${proof?.moves.map((m) => `${makeMove(m.move)} ${m.status}`).join(', ')}`,
  );
  const small = prover.prove(before, RACE_LIMITS.proofExpansions ?? 0);
  console.log(
    `  prover ${RACE_LIMITS.proofExpansions}: ${small?.status}; ${small?.moves.map((m) => `${makeMove(m.move)} ${m.status}`).join(', ')}`,
  );
  const lost = small?.moves.filter((m) => m.status === 'lost').map((m) => m.move) ?? [];
  const result = race.search(before, { ...RACE_LIMITS, timeMs: undefined }, lost);
  console.log(
    `  race search ${RACE_LIMITS.maxNodes}: depth ${result?.depth}; ${result?.scores.map((s) => `${makeMove(s.move)} ${s.score}`).join(', ')}`,
  );
}
table.close();
