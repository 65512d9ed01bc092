/**
 * `pnpm bench:engine`: search speed, then `max` against the `max` before issue 21 (kept in
 * tools/baseline-search.ts, not shipped), both bounded; BENCH_TOURNAMENT=1 adds the tournament.
 *
 * Speed: nodes per CPU second and the depth reached on BENCH_SPEED_NODES nodes (default 1M) from
 * set positions, the new search (without and with max's late-move reductions) beside the old
 * one, so a loaded machine slows both alike.
 *
 * max against old max, both sides, on BENCH_NODES nodes a move each (default 50k; no clock, so the
 * result is the same on a loaded machine), capped at 300 plies (a draw): from sound openings
 * (`everySoundOpening`) and from locked movement-phase starts (tools/locked-starts.ts). By default
 * 4 openings and 4 locked starts (BENCH_SOUND, BENCH_LOCKED); BENCH_FULL=1 plays all (48 and 20)
 * on 200k nodes a move unless BENCH_NODES says otherwise. In parts: BENCH_OPENINGS=0-11 and
 * BENCH_LOCKED=0-9 pick slices (also `3,7`, `0-3,7`; for BENCH_LOCKED `all`, or a bare count `0`
 * for none; BENCH_OPENINGS=all keeps its tournament meaning below and leaves this part to its default:
 * write `0-47`), BENCH_SPEED=0 skips the speed part, BENCH_SIDE=goat|tiger plays only new max's games
 * on that side, BENCH_WORKERS sets the worker threads, BENCH_RESULTS=file appends each game (with
 * its moves) as a JSON line, and BENCH_MERGE=a.jsonl,b.jsonl tallies such files. BENCH_TIME_MS
 * plays on a clock a move instead (load-dependent: for comparison only).
 *
 * With TABLEBASE_DIR set: max with the sliding-phase tablebase against max without it, from drawn
 * sliding-phase starts, both sides (tools/tablebase-match.ts; BENCH_TB_STARTS, BENCH_TB_NODES), the
 * results split by each start's class under R13 (tools/tablebase-starts.ts: proven lost for the
 * table side or not); skipped, with a line saying so, without. BENCH_MAX=0 skips max against old max; BENCH_TB_PROBE=1
 * gives new max the table in max against old max as the server's bot workers do (node-worker.ts:
 * `raceOracle` and `searchProbe`); old max never has it.
 *
 * The tournament: every level against every other and a random mover, both sides, BENCH_GAMES
 * games per pairing (default 40), on worker threads, on node budgets (no time caps), each game
 * from two opening plies picked at random among sound moves (`soundOpening`), capped at 200 plies
 * (a draw). BENCH_PLAYERS (e.g. `strong,max`) limits it to some players; BENCH_MINUTES (default
 * 600) stops it early and reports the games played by then, round by round alike.
 * BENCH_OPENINGS=all plays every sound opening once per side instead: the whole population the
 * random games sample (the levels play deterministically on node budgets, but for beginner/casual).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import {
  chooseMove,
  everySoundOpening,
  GOAT_WEIGHTS,
  LEVEL_SETTINGS,
  LEVELS,
  type Level,
  Searcher,
  seededRandom,
  soundOpening,
  useMoveOracle,
  useTableProbe,
  type Weights,
} from '@bagh/engine';
import { raceOracle, searchProbe, Tablebase } from '@bagh/engine/tablebase';
import { createGame, type Game, legalMoves, type Move, makeMove, parsePosition, play } from '@bagh/rules';
import { BaselineSearcher } from './baseline-search.js';
import { LOST_FORTRESS } from './issue-games.js';
import { LOCKED_STARTS } from './locked-starts.js';
import { tablebaseMatch } from './tablebase-match.js';

/** `old-max`: max as it was before issue 21, the baseline. */
type Player = Level | 'random' | 'old-max';
const ALL_PLAYERS: readonly Player[] = ['random', ...LEVELS];
const PLAYERS = ALL_PLAYERS.filter((p) => process.env.BENCH_PLAYERS?.split(',').includes(p) ?? true);
const MAX_PLIES = 200;
/** BENCH_OPENINGS=all: each pairing plays every sound opening once per side instead of BENCH_GAMES. */
const EVERY_OPENING = process.env.BENCH_OPENINGS === 'all';
/** Levels are judged on their node budgets, so a loaded machine cannot weaken one side. */
const NODE_BUDGETS_ONLY = { timeMs: undefined } as const;
/** Set positions the searchers are timed from. */
const SPEED_POSITIONS = {
  start: undefined,
  'mid placement': 'T3T/1G1G1/2G2/1G1G1/T3T g 15 0',
  'all placed': 'GGTGG/GG1GG/TG1GT/GGGG1/GGT1G g 0 0',
} as const;

interface Match {
  readonly tiger: Player;
  readonly goat: Player;
  readonly seed: number;
  /** Set with BENCH_OPENINGS=all: these plies instead of random sound ones. */
  readonly opening?: readonly Move[];
  /** A position string to start from instead. */
  readonly start?: string;
  /** Nodes a move instead of the levels' own budgets. */
  readonly nodes?: number;
  readonly maxPlies?: number;
  /** A clock a move instead of nodes (BENCH_TIME_MS: load-dependent). */
  readonly timeMs?: number;
  /** Which start of the max-against-old set this is. */
  readonly kind?: 'opening' | 'locked';
  readonly index?: number;
}
type Winner = 'tiger' | 'goat' | 'draw';
interface Played {
  readonly winner: Winner;
  /** The random opening plies, so a game can be replayed and studied. */
  readonly opening: string;
  readonly plies: number;
  readonly captures: number;
  /** Every move of the game, as move text. */
  readonly moves: string;
}

function startGame(position?: string): Game {
  const start = position === undefined ? undefined : parsePosition(position);
  const created = createGame('bagh-chal', {}, start?.ok ? start.value : undefined);
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

function playMatch(match: Match): Played {
  const random = seededRandom(match.seed);
  const searchers = { tiger: new Searcher(), goat: new Searcher() };
  const baselines = { tiger: new BaselineSearcher(), goat: new BaselineSearcher() };
  const limits =
    match.timeMs !== undefined
      ? { timeMs: match.timeMs, maxNodes: undefined }
      : match.nodes === undefined
        ? NODE_BUDGETS_ONLY
        : { ...NODE_BUDGETS_ONLY, maxNodes: match.nodes };
  // Random sound opening plies, so games between deterministic levels differ.
  let game =
    match.start !== undefined
      ? startGame(match.start)
      : match.opening
        ? playOpening(match.opening)
        : soundOpening(random);
  const opening = match.start ?? game.moves.map(makeMove).join(' ');
  const maxPlies = game.moves.length + (match.maxPlies ?? MAX_PLIES);
  for (let ply = game.moves.length; ply < maxPlies && !game.outcome; ply++) {
    const side = game.position.toMove;
    const player = side === 'tiger' ? match.tiger : match.goat;
    const moves = legalMoves(game);
    const move =
      player === 'random'
        ? moves[Math.floor(random() * moves.length)]!
        : player === 'old-max'
          ? baselines[side].search(game, { ...LEVEL_SETTINGS.max.limits, ...limits }).move!
          : chooseMove(game, player, random, searchers[side], { ...limits, ...trialWeights(game) })!.move;
    const played = play(game, move);
    if (!played.ok) throw new Error(played.error.message);
    game = played.value;
  }
  return {
    winner: game.outcome ? game.outcome.winner : 'draw',
    opening,
    plies: game.moves.length,
    captures: game.position.goatsCaptured,
    moves: game.moves.map(makeMove).join(' '),
  };
}

/**
 * BENCH_GOAT_WEIGHTS='{"crampedGoats":200}': new max's goats search with those of GOAT_WEIGHTS
 * changed (to try weights before they ship); with BENCH_GOAT_WEIGHTS_SLIDING=1 only once all
 * goats are placed.
 */
function trialWeights(game: Game): { weights?: Weights } {
  const trial = process.env.BENCH_GOAT_WEIGHTS;
  if (trial === undefined || game.position.toMove !== 'goat') return {};
  if (process.env.BENCH_GOAT_WEIGHTS_SLIDING === '1' && game.position.goatsInHand > 0) return {};
  return { weights: { ...GOAT_WEIGHTS, ...(JSON.parse(trial) as Partial<Weights>) } };
}

function playOpening(moves: readonly Move[], from: Game = startGame()): Game {
  let game = from;
  for (const move of moves) {
    const played = play(game, move);
    if (!played.ok) throw new Error(played.error.message);
    game = played.value;
  }
  return game;
}

/** CPU time, not wall time: the machine is shared, and a busy neighbour slows both searchers alike. */
function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function speed(): void {
  const nodes = Number(process.env.BENCH_SPEED_NODES ?? 1_000_000);
  console.log(
    `search speed (bagh-chal, ${nodes.toLocaleString('en-US')} nodes per position, CPU time): new | new with max's reductions | old`,
  );
  const games: Array<[string, Game]> = Object.entries(SPEED_POSITIONS).map(([name, p]) => [
    name,
    startGame(p),
  ]);
  const fortress = playOpening([]);
  games.push(['locked (R13)', LOST_FORTRESS.slice(0, 141).reduce(playText, fortress)]);
  // Both compiled hot before either is timed.
  for (const searcher of [new Searcher(), new BaselineSearcher()])
    searcher.search(games[0]![1], { maxNodes: 200_000 });
  for (const [name, game] of games) {
    const searchers = [
      [new Searcher(), false],
      [new Searcher(), true],
      [new BaselineSearcher(), false],
    ] as const;
    const cells = searchers.map(([searcher, reductions]) => {
      const started = cpuSeconds();
      const result = searcher.search(game, { maxNodes: nodes, reductions });
      const rate = Math.round(result.nodes / (cpuSeconds() - started)).toLocaleString('en-US');
      return `depth ${String(result.depth).padStart(2)} ${rate.padStart(10)} nodes/s`;
    });
    console.log(`  ${name.padEnd(14)} ${cells.join('  |  ')}`);
  }
}

function playText(game: Game, text: string): Game {
  const move = legalMoves(game).find((m) => makeMove(m) === text);
  if (!move) throw new Error(`${text} is not legal`);
  return playOpening([move], game);
}

/**
 * Which of `count` items an environment variable picks: unset → `fallback`; `all`; `N` → the
 * first N; `a-b` (inclusive) and `a,b,c` (indices, mixable: `0-3,7`).
 */
function pickIndices(spec: string | undefined, count: number, fallback: readonly number[]): number[] {
  if (spec === undefined || spec === '') return [...fallback];
  if (spec === 'all') return Array.from({ length: count }, (_, i) => i);
  if (/^\d+$/.test(spec)) return Array.from({ length: Math.min(Number(spec), count) }, (_, i) => i);
  const picked = new Set<number>();
  for (const part of spec.split(',')) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!range) throw new Error(`bad index list "${spec}" (all, N, a-b or a,b,c)`);
    const from = Number(range[1]);
    const to = Math.min(Number(range[2] ?? range[1]), count - 1);
    for (let i = from; i <= to; i++) picked.add(i);
  }
  return [...picked].sort((a, b) => a - b);
}

/** One game of max against old max as the results file keeps it (a JSON line). */
interface Duel {
  readonly kind: 'opening' | 'locked';
  readonly index: number;
  readonly tiger: Player;
  readonly goat: Player;
  readonly winner: Winner;
  readonly plies: number;
  readonly captures: number;
  readonly budget: string;
  readonly moves?: string;
}

function tallyDuels(duels: readonly Duel[]): void {
  const tally = (games: readonly Duel[], side: 'tiger' | 'goat') => {
    const mine = games.filter((r) => r[side] === 'max');
    const won = mine.filter((r) => r.winner === side).length;
    const drawn = mine.filter((r) => r.winner === 'draw').length;
    return `${won}-${drawn}-${mine.length - won - drawn}`;
  };
  for (const [name, kind] of [
    ['sound openings', 'opening'],
    ['locked starts', 'locked'],
  ] as const) {
    const games = duels.filter((r) => r.kind === kind);
    if (games.length === 0) continue;
    const won = (player: Player) => games.filter((r) => r.winner !== 'draw' && r[r.winner] === player).length;
    console.log(
      `  ${name} (${games.length} games): new max as tigers ${tally(games, 'tiger')}, as goats ${tally(games, 'goat')} (won-drawn-lost); games won: new ${won('max')}, old ${won('old-max')}`,
    );
  }
  const lost = duels.filter((r) => r.winner !== 'draw' && r[r.winner] === 'old-max');
  if (lost.length > 0)
    console.log(
      `  lost by new max: ${lost.map((r) => `${r.kind} ${r.index} as ${r.winner === 'tiger' ? 'goats' : 'tigers'}`).join(', ')}`,
    );
}

/**
 * max against the max before issue 21 from sound openings and locked starts, both sides, on an
 * equal node budget a move (no clock: the result does not depend on the machine's load), or with
 * BENCH_TIME_MS on a clock instead (load-dependent, for comparison only). BENCH_OPENINGS and
 * BENCH_LOCKED pick slices (`0-11`, `3,7`, `all`), BENCH_RESULTS appends each game as a JSON line
 * to a file, and BENCH_MERGE=a.jsonl,b.jsonl only tallies such files (slices run apart).
 */
async function maxAgainstOld(): Promise<void> {
  const full = process.env.BENCH_FULL === '1';
  const timeMs = process.env.BENCH_TIME_MS === undefined ? undefined : Number(process.env.BENCH_TIME_MS);
  const nodes = Number(process.env.BENCH_NODES ?? (full ? 200_000 : 50_000));
  const openings = everySoundOpening();
  const sound = Number(process.env.BENCH_SOUND ?? (full ? openings.length : 4));
  // By default a spread of them: every n-th.
  const spread = openings.map((_, i) => i).filter((i) => i % Math.ceil(openings.length / sound) === 0);
  const picked = pickIndices(
    process.env.BENCH_OPENINGS === 'all' ? undefined : process.env.BENCH_OPENINGS,
    openings.length,
    spread.slice(0, sound),
  );
  const locked = pickIndices(
    process.env.BENCH_LOCKED,
    LOCKED_STARTS.length,
    LOCKED_STARTS.map((_, i) => i).slice(0, full ? LOCKED_STARTS.length : 4),
  );
  const budget = timeMs === undefined ? `${nodes} nodes` : `${timeMs} ms`;
  const matches: Match[] = [];
  for (const [kind, indices] of [
    ['opening', picked],
    ['locked', locked],
  ] as const)
    for (const index of indices)
      for (const [tiger, goat] of [
        ['max', 'old-max'],
        ['old-max', 'max'],
      ] as const) {
        // BENCH_SIDE=goat or tiger: only the games new max plays on that side.
        const side = process.env.BENCH_SIDE;
        if ((side === 'goat' && goat !== 'max') || (side === 'tiger' && tiger !== 'max')) continue;
        const from = kind === 'locked' ? { start: LOCKED_STARTS[index]! } : { opening: openings[index]! };
        matches.push({ tiger, goat, seed: index, nodes, timeMs, maxPlies: 300, kind, index, ...from });
      }
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `\nmax against old max: sound openings ${describeIndices(picked)} of ${openings.length}, locked starts ${describeIndices(locked)} of ${LOCKED_STARTS.length}, ${process.env.BENCH_SIDE === 'goat' || process.env.BENCH_SIDE === 'tiger' ? `new max as ${process.env.BENCH_SIDE}s only` : 'both sides'}, ${timeMs === undefined ? `${nodes.toLocaleString('en-US')} nodes a move each (no clock; new max's goats by the phase, GOAT_BUDGET_SHAPE)` : `${timeMs} ms a move each (clock: depends on load)`}; load average ${load}`,
  );
  const started = performance.now();
  const duel = (r: Match & Played): Duel => ({
    kind: r.kind!,
    index: r.index!,
    tiger: r.tiger,
    goat: r.goat,
    winner: r.winner,
    plies: r.plies,
    captures: r.captures,
    budget,
    moves: r.moves,
  });
  // Each game as it ends, so a run stopped early leaves the games it played.
  const file = process.env.BENCH_RESULTS;
  const results = await runMatches(matches, Number(process.env.BENCH_MINUTES ?? 600), (r) => {
    if (file !== undefined) appendFileSync(file, `${JSON.stringify(duel(r))}\n`);
  });
  tallyDuels(results.map(duel));
  console.log(
    `  ${results.length} games, ${((performance.now() - started) / 1000).toFixed(0)} s; load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

function describeIndices(indices: readonly number[]): string {
  if (indices.length === 0) return 'none';
  const runs: string[] = [];
  let from = indices[0]!;
  for (let i = 1; i <= indices.length; i++) {
    if (i < indices.length && indices[i] === indices[i - 1]! + 1) continue;
    const to = indices[i - 1]!;
    runs.push(from === to ? `${from}` : `${from}-${to}`);
    from = indices[i] ?? 0;
  }
  return `#${runs.join(',')}`;
}

/** BENCH_MERGE: the tally of results files written by slices (BENCH_RESULTS). */
function mergeResults(files: readonly string[]): void {
  const duels = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Duel),
  );
  const budgets = [...new Set(duels.map((d) => d.budget))];
  console.log(`max against old max, merged from ${files.join(', ')}: ${budgets.join(' / ')} a move`);
  // A game played twice (overlapping slices) counts once: the last one.
  const unique = new Map(duels.map((d) => [`${d.kind} ${d.index} ${d.tiger} ${d.budget}`, d]));
  tallyDuels([...unique.values()]);
}

async function tournament(gamesPerPairing: number, minutes: number): Promise<void> {
  const pairings: Array<[Player, Player]> = [];
  for (const [i, a] of PLAYERS.entries()) for (const b of PLAYERS.slice(i + 1)) pairings.push([a, b]);
  // Round by round over the pairings, so a run cut short by BENCH_MINUTES has played each alike.
  const matches: Match[] = [];
  let seed = 1;
  if (EVERY_OPENING) {
    for (const opening of everySoundOpening())
      for (const [a, b] of pairings) {
        matches.push({ tiger: a, goat: b, seed: seed++, opening });
        matches.push({ tiger: b, goat: a, seed: seed++, opening });
      }
  } else {
    for (let g = 0; g < gamesPerPairing; g++) {
      for (const [a, b] of pairings) {
        matches.push(g % 2 === 0 ? { tiger: a, goat: b, seed: seed++ } : { tiger: b, goat: a, seed: seed++ });
      }
    }
  }
  const started = performance.now();
  const results = await runMatches(matches, minutes);
  if (results.length < matches.length)
    console.log(
      `\ncut short by BENCH_MINUTES=${minutes}: ${results.length} of ${matches.length} games played`,
    );
  console.log(
    `\ntournament: ${EVERY_OPENING ? 'every sound opening' : `up to ${gamesPerPairing} games per pairing`}, both sides, ${results.length} games, ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log('row player vs column player: wins-draws-losses (as tiger + as goat)');
  console.log(['', ...PLAYERS].map((p) => p.padEnd(12)).join(''));
  for (const a of PLAYERS) {
    const cells = PLAYERS.map((b) => {
      if (a === b) return '—';
      const games = results.filter((r) => (r.tiger === a && r.goat === b) || (r.tiger === b && r.goat === a));
      const won = games.filter((r) => r.winner !== 'draw' && r[r.winner] === a).length;
      const drawn = games.filter((r) => r.winner === 'draw').length;
      return `${won}-${drawn}-${games.length - won - drawn}`;
    });
    console.log([a, ...cells].map((c) => c.padEnd(12)).join(''));
  }
  for (const level of LEVELS) {
    const asGoat = results.filter(
      (r) => r.goat === level && PLAYERS.indexOf(r.tiger) < PLAYERS.indexOf(level),
    );
    const lost = asGoat.filter((r) => r.winner === 'tiger').length;
    console.log(`${level} as goats vs lower: ${asGoat.length} games, lost ${lost}`);
  }
}

/** Plays the matches on worker threads, at most `minutes`, printing each game as it ends (and handing it to `ended`). */
async function runMatches(
  matches: readonly Match[],
  minutes: number,
  ended?: (result: Match & Played) => void,
): Promise<Array<Match & Played>> {
  const results: Array<Match & Played> = [];
  const deadline = performance.now() + minutes * 60_000;
  let next = 0;
  const workers = Number(process.env.BENCH_WORKERS ?? Math.max(1, Math.min(availableParallelism(), 4)));
  await Promise.all(
    Array.from({ length: workers }, () => {
      const worker = new Worker(new URL(import.meta.url));
      const handOut = () => {
        if (next < matches.length && performance.now() < deadline) worker.postMessage(matches[next++]);
        else void worker.terminate();
      };
      const timer = setTimeout(() => void worker.terminate(), Math.max(0, deadline - performance.now()));
      return new Promise<void>((resolve, reject) => {
        worker.on('message', (r: Match & Played) => {
          results.push(r);
          ended?.(r);
          console.log(
            `  game ${results.length}: ${r.tiger} (tigers) vs ${r.goat} (goats): ${r.winner}` +
              `  (${r.kind === undefined ? '' : `${r.kind} ${r.index}: `}${r.opening}; ${r.plies} plies, ${r.captures} goats taken)`,
          );
          handOut();
        });
        worker.on('error', reject);
        worker.on('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        handOut();
      });
    }),
  );
  return results;
}

if (isMainThread && process.env.BENCH_MERGE !== undefined) {
  mergeResults(process.env.BENCH_MERGE.split(','));
} else if (isMainThread) {
  if (process.env.BENCH_SPEED !== '0') speed();
  if (process.env.BENCH_MAX !== '0') await maxAgainstOld();
  // max with the sliding-phase tablebase against max without it (tools/tablebase-match.ts).
  if (process.env.TABLEBASE_DIR)
    tablebaseMatch(
      process.env.TABLEBASE_DIR,
      loadavg()
        .map((l) => l.toFixed(1))
        .join(' '),
    );
  else console.log('\nmax with the tablebase against max without it: skipped (no TABLEBASE_DIR)');
  if (process.env.BENCH_TOURNAMENT === '1')
    await tournament(Number(process.env.BENCH_GAMES ?? 40), Number(process.env.BENCH_MINUTES ?? 600));
} else {
  // BENCH_TB_PROBE=1 (with TABLEBASE_DIR): new max plays as the server's bot workers make it with
  // a table (node-worker.ts: the table's fastest win, in its draws the race search's move; its
  // search probes it where the hand empties), for issue 21's question whether that lowers its
  // losses as goats. Only `max` consults these (bot.ts); old max searches without the table.
  if (process.env.BENCH_TB_PROBE === '1' && process.env.TABLEBASE_DIR) {
    const table = Tablebase.open(process.env.TABLEBASE_DIR);
    useMoveOracle(raceOracle(table));
    useTableProbe(searchProbe(table));
  }
  parentPort!.on('message', (match: Match) => parentPort!.postMessage({ ...match, ...playMatch(match) }));
}
