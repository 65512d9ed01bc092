/**
 * `max` with the sliding-phase tablebase against `max` without it (issue 20), from sliding-phase
 * starts, both sides, run by `pnpm bench:engine` when TABLEBASE_DIR names a built table.
 *
 * The starts: games from a random sound opening played on by `casual` (seeded, so they differ)
 * until the last goat is placed, kept when the table says the start is a draw (neither side is
 * lost, so the table side must never lose) and not yet over; BENCH_TB_STARTS of them (default 12).
 * Each start is played twice, the table on either side. Both sides are `max` on the same node
 * budget a move (BENCH_TB_NODES, default 50k; no clock, so the result does not depend on the
 * load); the table side is `max` as the server's bot workers make it: it plays the table's fastest
 * win where the table has one, in a table draw the race search's move (`raceOracle`, race.ts;
 * BENCH_TB_RACE_NODES, BENCH_TB_RACE_CAPTURE, BENCH_TB_RACE_TOGGLE and BENCH_TB_PROOF override its budget,
 * capture and toggle weights and the prover's expansions), and its
 * search probes the table (`useTableProbe`). For comparison BENCH_TB_ORACLE=keep lets `max`
 * search among the drawing moves the race did not prove lost, =wins plays only the table's wins
 * (the search alone in its draws), =best keeps to the table's best moves (searching among them).
 * Capped at 300 plies from the start (a draw). Prints W-D-L per side, and beside each start the
 * game of max against max with no table (the reference). BENCH_TB_ONLY=4,6 plays only those starts
 * (numbered as in the full run), BENCH_TB_SIDES=goat only that table side (and no reference), and
 * BENCH_TB_TRACE=1 prints each ply: the move, its time, the table's value after it and the drawing
 * moves (legal under R13) left to the side to move. Each start is classified by the
 * race's proof-number search (tools/tablebase-starts.ts: a fixed budget, cached in
 * tools/tablebase-starts.json): a start the table calls a draw may be lost under R13 for one side
 * from the first move, whatever it plays. The results are split by it, and the goal line says
 * whether the table side lost any game from a start not proven lost for it.
 */

import { loadavg } from 'node:os';
import {
  chooseMove,
  type MoveOracle,
  Searcher,
  seededRandom,
  useMoveOracle,
  useTableProbe,
} from '@bagh/engine';
import { RACE_LIMITS, raceOracle, searchProbe, Tablebase } from '@bagh/engine/tablebase';
import { type Game, makeMove, play } from '@bagh/rules';
import { drawnStarts, STARTS_EXPANSIONS, startClasses } from './tablebase-starts.js';

export { drawnStarts };

const MAX_PLIES = 300;

type Side = 'tiger' | 'goat';
interface Tally {
  win: number;
  draw: number;
  loss: number;
}

/** One game from `start`; the table plays `tableSide`. The winner, or 'draw' at the cap. */
export function playWithTable(
  table: Tablebase,
  start: Game,
  tableSide: Side | null,
  nodes: number,
  times: number[] = [],
): Side | 'draw' {
  // As the server's bot workers (BENCH_TB_ORACLE, default race), or another oracle for comparison.
  const probe = searchProbe(table);
  const oracle = tableOracle(table, process.env.BENCH_TB_ORACLE ?? 'race');
  const searchers = { tiger: new Searcher(), goat: new Searcher() };
  const limits = { timeMs: undefined, maxNodes: nodes };
  const random = seededRandom(0);
  const trace = process.env.BENCH_TB_TRACE === '1';
  let game = start;
  try {
    for (let ply = 0; ply < MAX_PLIES && !game.outcome; ply++) {
      const side = game.position.toMove;
      const withTable = side === tableSide;
      useMoveOracle(withTable ? oracle : null);
      useTableProbe(withTable ? probe : null);
      const began = performance.now();
      const choice = chooseMove(game, 'max', random, searchers[side], limits);
      if (!choice) break;
      const ms = performance.now() - began;
      if (withTable) times.push(ms);
      const next = play(game, choice.move);
      if (!next.ok) throw new Error(next.error.message);
      game = next.value;
      if (trace) console.log(`    ${traceLine(table, game, ply, side, withTable, choice.move, ms)}`);
    }
  } finally {
    useMoveOracle(null);
    useTableProbe(null);
  }
  return game.outcome ? game.outcome.winner : 'draw';
}

/** One ply of BENCH_TB_TRACE: who moved what, its time, and the table's view of the position after it. */
function traceLine(
  table: Tablebase,
  game: Game,
  ply: number,
  side: Side,
  withTable: boolean,
  move: Parameters<typeof makeMove>[0],
  ms: number,
): string {
  const head = `${ply} ${side}${withTable ? '*' : ' '} ${makeMove(move).padEnd(6)} ${ms.toFixed(0).padStart(5)} ms`;
  if (game.outcome || table.outside(game.position)) return `${head} ${game.outcome?.winner ?? 'out'}`;
  const verdict = table.verdict(game.position);
  const answer = table.analyse(game);
  const draws = answer.ok ? answer.value.moves.filter((m) => m.result === 'draw').length : 0;
  const value = verdict.result === 'draw' ? 'draw' : `${verdict.result} in ${verdict.plies}`;
  return `${head} ${value}, captured ${game.position.goatsCaptured}, ${draws} drawing moves for ${game.position.toMove}`;
}

/** The table side's oracle by name: 'race' and 'keep' (race.ts), 'wins' (the table's wins only), 'best' (its best moves). */
function tableOracle(table: Tablebase, name: string): MoveOracle {
  const limits = {
    maxNodes: Number(process.env.BENCH_TB_RACE_NODES ?? RACE_LIMITS.maxNodes),
    captureWeight: Number(process.env.BENCH_TB_RACE_CAPTURE ?? RACE_LIMITS.captureWeight),
    proofExpansions: Number(process.env.BENCH_TB_PROOF ?? RACE_LIMITS.proofExpansions),
    toggleWeight: Number(process.env.BENCH_TB_RACE_TOGGLE ?? RACE_LIMITS.toggleWeight ?? 0),
  };
  if (name === 'race' || name === 'keep') return raceOracle(table, name, limits);
  if (name === 'best') return (game) => table.bestMoves(game);
  if (name === 'wins') return (game) => table.winningMoves(game);
  throw new Error(`BENCH_TB_ORACLE: ${name} is not race, keep, wins or best`);
}

export function tablebaseMatch(dir: string, load: string): void {
  const count = Number(process.env.BENCH_TB_STARTS ?? 12);
  const nodes = Number(process.env.BENCH_TB_NODES ?? 50_000);
  const table = Tablebase.open(dir);
  try {
    const starts = drawnStarts(table, count);
    const only = process.env.BENCH_TB_ONLY?.split(',').map(Number);
    const sides = (process.env.BENCH_TB_SIDES?.split(',') ?? ['tiger', 'goat']) as Side[];
    const reference = sides.length === 2;
    console.log(
      `\nmax with the tablebase (${dir}; oracle ${process.env.BENCH_TB_ORACLE ?? 'race'}) against max without it: ${starts.length} drawn sliding-phase starts${only ? ` (playing ${only.join(', ')})` : ''}, ${reference ? 'both sides' : `the table as ${sides.join(' and ')}s`}, ${nodes.toLocaleString('en-US')} nodes a move each (no clock; the goats' by the phase, GOAT_BUDGET_SHAPE), capped at ${MAX_PLIES} plies; load average ${load}`,
    );
    // Per side: from starts proven lost for it under R13 (any play loses), and from the others.
    const tallies: Record<Side, Record<'proven' | 'open', Tally>> = {
      tiger: { proven: { win: 0, draw: 0, loss: 0 }, open: { win: 0, draw: 0, loss: 0 } },
      goat: { proven: { win: 0, draw: 0, loss: 0 }, open: { win: 0, draw: 0, loss: 0 } },
    };
    const lostFrom: Record<Side, Record<'proven' | 'open', number[]>> = {
      tiger: { proven: [], open: [] },
      goat: { proven: [], open: [] },
    };
    const classes = startClasses(table, starts, console.log, only);
    const plainTally = { tiger: 0, goat: 0, draw: 0 };
    const times: number[] = [];
    for (const [i, start] of starts.entries()) {
      if (only && !only.includes(i)) continue;
      const line: string[] = [];
      const { lost, budget } = classes[i]!;
      const deeper = budget === undefined ? '' : `, ${budget.toLocaleString('en-US')} expansions`;
      line.push(lost ? `R13: the ${lost}s lose (proven${deeper})` : `R13: not proven lost${deeper}`);
      if (reference) {
        const plain = playWithTable(table, start, null, nodes);
        plainTally[plain]++;
        line.push(`no table either side: ${plain}`);
      }
      for (const side of sides) {
        const winner = playWithTable(table, start, side, nodes, times);
        const kind = lost === side ? 'proven' : 'open';
        const tally = tallies[side][kind];
        if (winner === 'draw') tally.draw++;
        else if (winner === side) tally.win++;
        else {
          tally.loss++;
          lostFrom[side][kind].push(i);
        }
        line.push(`table as ${side}s: ${winner === 'draw' ? 'draw' : winner === side ? 'win' : 'LOSS'}`);
      }
      console.log(`  start ${i} (after ${start.moves.length} plies): ${line.join(', ')}`);
    }
    if (reference)
      console.log(
        `  no table either side: tigers ${plainTally.tiger}, goats ${plainTally.goat}, draws ${plainTally.draw}`,
      );
    const wdl = (t: Tally) => `${t.win}-${t.draw}-${t.loss}`;
    const listed = (starts: number[]) => (starts.length > 0 ? ` (lost: ${starts.join(', ')})` : '');
    for (const side of sides) {
      const { proven, open } = tallies[side];
      const all = {
        win: proven.win + open.win,
        draw: proven.draw + open.draw,
        loss: proven.loss + open.loss,
      };
      console.log(
        `  table as ${side}s: W-D-L ${wdl(all)}; from starts not proven lost for it ${wdl(open)}${listed(lostFrom[side].open)}; from starts proven lost for it (any play loses) ${wdl(proven)}${listed(lostFrom[side].proven)}`,
      );
    }
    const openLosses = sides.flatMap((side) => lostFrom[side].open.map((i) => `${i} as ${side}s`));
    // Starts classified on a deeper budget than the file's (tablebase-starts.js --only … --expansions …).
    const deeper = classes
      .map((c, i) => (c?.budget === undefined ? '' : `${i} on ${c.budget.toLocaleString('en-US')}`))
      .filter((text) => text !== '');
    console.log(
      `  goal, no loss from a start not proven lost (prover, ${STARTS_EXPANSIONS.toLocaleString('en-US')} expansions a start${deeper.length > 0 ? `; start ${deeper.join(', ')}` : ''}): ${openLosses.length === 0 ? 'met' : `NOT met (${openLosses.join(', ')})`}`,
    );
    times.sort((a, b) => a - b);
    const mean = times.reduce((sum, ms) => sum + ms, 0) / Math.max(1, times.length);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
    console.log(
      `  the table side's moves: ${times.length}, mean ${mean.toFixed(0)} ms, median ${at(0.5).toFixed(0)}, 95th ${at(0.95).toFixed(0)}, max ${at(1).toFixed(0)} (load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
    );
  } finally {
    table.close();
  }
}
