/**
 * The starts of `max` with the table against `max` without it (tools/tablebase-match.ts), each
 * classified under R13 by the race's proof-number search (src/tablebase/prover.ts) on a fixed
 * budget (STARTS_EXPANSIONS, no clock: the same answer on any load): the table calls every start a
 * draw, but under R13 the race from it may be lost from the first move for one side, whatever it
 * plays. A bench that demands "the table side never loses" can only demand it from a start not
 * proven lost for that side; the proven ones are still played and printed, apart.
 *
 * The classification takes minutes (up to a minute a start), so it is kept in
 * tools/tablebase-starts.json, written by
 *   TABLEBASE_DIR=/work/data/tablebase nice -n 10 node packages/engine/dist-tools/tablebase-starts.js 32
 * (after `pnpm build`; the count of starts, default 32). The bench checks every entry it uses
 * against its own start list (position and plies) and the budget, and classifies afresh (with a
 * line saying so) any start the file lacks or does not match (only those played, with BENCH_TB_ONLY).
 *
 * A start left open at STARTS_EXPANSIONS may be proven on a deeper budget:
 *   TABLEBASE_DIR=… nice -n 10 node packages/engine/dist-tools/tablebase-starts.js 32 --only 1,15 --expansions 3000000 [--write]
 * proves only those starts and prints each (with the process's peak memory); `--write` replaces
 * their entries (and no other) with the deeper class, its `budget` recorded in the entry.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chooseMove, type Level, Searcher, seededRandom, soundOpening } from '@bagh/engine';
import { blockProbe, RaceProver, Tablebase } from '@bagh/engine/tablebase';
import { type Game, makePosition, play } from '@bagh/rules';

type Side = 'tiger' | 'goat';

/** The prover's budget a start: starts 4, 8, 11, 12 and 14 of the 16 are proven within 640k. */
export const STARTS_EXPANSIONS = 1_000_000;

export interface StartClass {
  /** The start's position (R41) and its plies from the game's start: what the bench checks. */
  readonly position: string;
  readonly plies: number;
  /** The side that loses the race whatever it plays (proven), or null (not proven lost). */
  readonly lost: Side | null;
  /** The prover's expansions (to its proof, or the whole budget). */
  readonly expansions: number;
  /** The prover's budget where it is not the file's (a deeper proof of this start); else absent. */
  readonly budget?: number;
}

interface StartsFile {
  readonly expansions: number;
  readonly starts: StartClass[];
}

const FILE = fileURLToPath(new URL('../tools/tablebase-starts.json', import.meta.url));
export const REGENERATE =
  'TABLEBASE_DIR=… nice -n 10 node packages/engine/dist-tools/tablebase-starts.js <count>';

/** Sliding-phase starts the table calls draws, from seeded self-play of `level`. */
export function drawnStarts(table: Tablebase, count: number, level: Level = 'casual'): Game[] {
  const starts: Game[] = [];
  for (let seed = 1; starts.length < count && seed < count * 50; seed++) {
    const random = seededRandom(seed);
    let game = soundOpening(random);
    const searcher = new Searcher();
    while (!game.outcome && game.position.goatsInHand > 0) {
      const choice = chooseMove(game, level, random, searcher, { timeMs: undefined, maxNodes: 20_000 });
      if (!choice) break;
      const next = play(game, choice.move);
      if (!next.ok) throw new Error(next.error.message);
      game = next.value;
    }
    if (game.outcome || table.outside(game.position)) continue;
    if (table.verdict(game.position).result === 'draw') starts.push(game);
  }
  return starts;
}

/** One start proved afresh on `expansions`. */
export function classifyStart(prover: RaceProver, start: Game, expansions = STARTS_EXPANSIONS): StartClass {
  const proof = prover.prove(start, expansions);
  const mover = start.position.toMove;
  const other: Side = mover === 'tiger' ? 'goat' : 'tiger';
  const lost = proof?.status === 'won' ? other : proof?.status === 'lost' ? mover : null;
  return {
    position: makePosition(start.position),
    plies: start.moves.length,
    lost,
    expansions: proof?.expansions ?? 0,
    ...(expansions === STARTS_EXPANSIONS ? {} : { budget: expansions }),
  };
}

/** "proven lost for the goats in 2,345,678 expansions (budget 3,000,000)", for logs and the bench. */
export function describeClass(c: StartClass): string {
  const budget = c.budget === undefined ? '' : ` (budget ${c.budget.toLocaleString('en-US')})`;
  return `${c.lost ? `the ${c.lost}s lose (proven)` : 'not proven lost'} in ${c.expansions.toLocaleString('en-US')} expansions${budget}`;
}

function readFile(): StartsFile | null {
  try {
    return JSON.parse(readFileSync(FILE, 'utf8')) as StartsFile;
  } catch {
    return null;
  }
}

/**
 * The class of each start (of those in `only`, if given): from tools/tablebase-starts.json where
 * its entry matches the start and the budget is STARTS_EXPANSIONS, else proved now (and said so on
 * `log`).
 */
export function startClasses(
  table: Tablebase,
  starts: readonly Game[],
  log: (line: string) => void = console.log,
  only?: readonly number[],
): Array<StartClass | undefined> {
  const file = readFile();
  const cached = file?.expansions === STARTS_EXPANSIONS ? file.starts : [];
  let prover: RaceProver | null = null;
  const fresh: number[] = [];
  const classes = starts.map((start, i) => {
    if (only && !only.includes(i)) return undefined;
    const entry = cached[i];
    if (entry && entry.position === makePosition(start.position) && entry.plies === start.moves.length)
      return entry;
    fresh.push(i);
    prover ??= new RaceProver(blockProbe(table), table.winCaptures);
    return classifyStart(prover, start);
  });
  if (fresh.length > 0)
    log(
      `  starts ${fresh.join(', ')} not in tools/tablebase-starts.json (or not matching it): proved now; regenerate: ${REGENERATE}`,
    );
  return classes;
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.env.TABLEBASE_DIR;
  if (!dir) throw new Error('TABLEBASE_DIR must name the built table');
  const count = Number(process.argv[2] ?? 32);
  const only = option('--only')?.split(',').map(Number);
  const expansions = Number(option('--expansions') ?? STARTS_EXPANSIONS);
  const write = only === undefined || process.argv.includes('--write');
  const table = Tablebase.open(dir);
  try {
    const prover = new RaceProver(blockProbe(table), table.winCaptures);
    const starts = drawnStarts(table, count);
    const previous = readFile();
    if (only && previous?.expansions !== STARTS_EXPANSIONS)
      throw new Error(`--only updates tools/tablebase-starts.json, which must exist first: ${REGENERATE}`);
    const classes: StartClass[] = only ? [...previous!.starts] : [];
    for (const [i, start] of starts.entries()) {
      if (only && !only.includes(i)) continue;
      const began = performance.now();
      const c = classifyStart(prover, start, expansions);
      classes[i] = c;
      console.log(
        `start ${i} (${c.position}, after ${c.plies} plies): ${describeClass(c)}, ${((performance.now() - began) / 1000).toFixed(0)} s, peak resident ${(process.resourceUsage().maxRSS / 1024 / 1024).toFixed(2)} GB`,
      );
    }
    if (write) {
      const out: StartsFile = { expansions: STARTS_EXPANSIONS, starts: classes };
      writeFileSync(FILE, `${JSON.stringify(out, null, 2)}\n`);
      console.log(`written ${FILE}`);
    }
  } finally {
    table.close();
  }
}
