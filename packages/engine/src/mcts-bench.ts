/**
 * `node packages/engine/dist/mcts-bench.js` (after `pnpm build`): the MCTS player against the
 * alpha-beta `Searcher`, Bagh Chal, both sides, each game from two random opening plies (every
 * opening is played twice, once with the challenger on each side), capped at 200 plies (a draw).
 *
 * Pairings (BENCH_PAIRINGS, comma-separated; default `eq100,eq300,strong`):
 * - `eqN`: equal time, N ms per move for both (MCTS `timeMs` against `Searcher.search` `timeMs`);
 * - `itI-nN`: MCTS on I iterations against the searcher on N nodes (no clock: reproducible);
 * - a level name (`beginner`, `casual`, `strong`, `max`): the level as the bot plays it
 *   (`chooseMove`, its own node and time limits) against MCTS given that level's time limit.
 * Each side's results depend on the side (the tigers win most games between equals), so every
 * pairing is also played by a baseline challenger, the alpha-beta searcher on the MCTS budget
 * (time, or the opponent's nodes), from the same openings: MCTS plays a side better than
 * alpha-beta when it scores more than the baseline there. BENCH_BASELINE: `eq` (default: for
 * the eqN and itI-nN pairings), `all`, `none` or `only` (the baseline without MCTS).
 *
 * BENCH_GAMES games per pairing and challenger (default 8, even; the default run takes about 9 minutes), on at most 2 worker threads;
 * the openings are seeded BENCH_SEED, BENCH_SEED + 1, … (default 1), so runs can be split.
 * MCTS options can be overridden with MCTS_OPTS (JSON of `MctsLimits`). Time-based pairings
 * depend on the machine: run them on a calm one; the load average is printed before and after.
 * First it prints both searchers' speed from three positions (BENCH_SPEED=0 skips it).
 */
import { availableParallelism, loadavg } from 'node:os';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { createGame, type Game, legalMoves, type Move, parsePosition, play } from '@bagh/rules';
import { chooseMove, seededRandom } from './bot.js';
import { LEVEL_SETTINGS, LEVELS, type Level } from './levels.js';
import { type MctsLimits, mctsChooseMove } from './mcts.js';
import { SPEED_POSITIONS } from './openings.js';
import { Searcher, type SearchLimits } from './search.js';

const MAX_PLIES = 200;
const OPENING_PLIES = 2;

type Side = 'tiger' | 'goat';
type Challenger = 'mcts' | 'ab';

interface Pairing {
  readonly name: string;
  /** The challenger's budget per move: a time, or MCTS iterations (alpha-beta: the opponent's nodes). */
  readonly budget: { readonly timeMs?: number; readonly iterations?: number };
  /** Alpha-beta at `timeMs` or `maxNodes` per move, or a level through `chooseMove`. */
  readonly opponent: { readonly timeMs?: number; readonly maxNodes?: number } | { readonly level: Level };
}

interface Match {
  readonly pairing: Pairing;
  readonly challenger: Challenger;
  readonly side: Side;
  readonly seed: number;
  readonly mctsOptions: MctsLimits;
}

interface Outcome {
  readonly pairing: string;
  readonly challenger: Challenger;
  readonly side: Side;
  readonly seed: number;
  readonly winner: Side | 'draw';
  readonly plies: number;
  /** The challenger's moves, work (MCTS iterations or alpha-beta nodes) and milliseconds. */
  readonly moves: number;
  readonly work: number;
  readonly ms: number;
  readonly opponentMoves: number;
  readonly opponentNodes: number;
  readonly opponentDepth: number;
  readonly opponentMs: number;
}

function pairingOf(name: string): Pairing {
  const equal = /^eq(\d+)$/.exec(name);
  if (equal) return { name, budget: { timeMs: Number(equal[1]) }, opponent: { timeMs: Number(equal[1]) } };
  const counted = /^it(\d+)-n(\d+)$/.exec(name);
  if (counted) {
    return { name, budget: { iterations: Number(counted[1]) }, opponent: { maxNodes: Number(counted[2]) } };
  }
  if ((LEVELS as readonly string[]).includes(name)) {
    const settings = LEVEL_SETTINGS[name as Level];
    return {
      name,
      budget: { timeMs: settings.limits.timeMs ?? settings.budgetMs },
      opponent: { level: name as Level },
    };
  }
  throw new Error(
    `unknown pairing ${name}: eqN (ms), itI-nN (iterations, nodes) or one of ${LEVELS.join(', ')}`,
  );
}

function baselineLimits(pairing: Pairing): SearchLimits {
  if (pairing.budget.timeMs !== undefined) return { timeMs: pairing.budget.timeMs };
  return 'level' in pairing.opponent ? {} : { maxNodes: pairing.opponent.maxNodes };
}

function playMatch(match: Match): Outcome {
  const { pairing, side: challengerSide } = match;
  const openings = seededRandom(match.seed);
  const mctsRandom = seededRandom(match.seed * 7919 + 1);
  const botRandom = seededRandom(match.seed * 104_729 + 2);
  const searcher = new Searcher();
  const baseline = new Searcher();
  const created = createGame('bagh-chal');
  if (!created.ok) throw new Error(created.error.message);
  let game: Game = created.value;
  const stats = {
    moves: 0,
    work: 0,
    ms: 0,
    opponentMoves: 0,
    opponentNodes: 0,
    opponentDepth: 0,
    opponentMs: 0,
  };
  let plies = 0;
  for (; plies < MAX_PLIES && !game.outcome; plies++) {
    let move: Move;
    const started = performance.now();
    if (plies < OPENING_PLIES) {
      const moves = legalMoves(game);
      move = moves[Math.floor(openings() * moves.length)]!;
    } else if (game.position.toMove === challengerSide) {
      if (match.challenger === 'mcts') {
        const result = mctsChooseMove(game, { ...match.mctsOptions, ...pairing.budget }, mctsRandom);
        stats.work += result.iterations;
        move = result.move!;
      } else {
        const result = baseline.search(game, baselineLimits(pairing));
        stats.work += result.nodes;
        move = result.move!;
      }
      stats.ms += performance.now() - started;
      stats.moves++;
    } else {
      const { opponent } = pairing;
      const result =
        'level' in opponent
          ? chooseMove(game, opponent.level, botRandom, searcher)!
          : searcher.search(game, opponent);
      stats.opponentMs += performance.now() - started;
      stats.opponentMoves++;
      stats.opponentNodes += result.nodes;
      stats.opponentDepth += result.depth;
      move = result.move!;
    }
    const played = play(game, move);
    if (!played.ok) throw new Error(played.error.message);
    game = played.value;
  }
  return {
    pairing: pairing.name,
    challenger: match.challenger,
    side: challengerSide,
    seed: match.seed,
    winner: game.outcome ? game.outcome.winner : 'draw',
    plies,
    ...stats,
  };
}

/** Wins-draws-losses from the challenger's side. */
function wdl(games: readonly Outcome[]): string {
  const won = games.filter((g) => g.winner === g.side).length;
  const drawn = games.filter((g) => g.winner === 'draw').length;
  return `${won}-${drawn}-${games.length - won - drawn}`;
}

function report(pairings: readonly Pairing[], outcomes: readonly Outcome[]): void {
  const rate = (n: number, ms: number): string =>
    Math.round((n / Math.max(ms, 1)) * 1000).toLocaleString('en-US');
  const widths = [16, 18, 22, 12, 12, 12, 8, 16, 10, 13, 10, 11];
  const row = (cells: string[]): string =>
    cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('');
  console.log('challenger vs opponent: wins-draws-losses from the challenger side (200-ply cap = draw)');
  console.log(
    row([
      'pairing',
      'challenger',
      'opponent',
      'as tigers',
      'as goats',
      'total',
      'plies',
      'challenger /s',
      'ms/move',
      'opp nodes/s',
      'ms/move',
      'opp depth',
    ]),
  );
  for (const pairing of pairings) {
    const { opponent, budget } = pairing;
    const opponentName =
      'level' in opponent
        ? `${opponent.level} (chooseMove)`
        : opponent.timeMs !== undefined
          ? `AB ${opponent.timeMs} ms`
          : `AB ${opponent.maxNodes} nodes`;
    for (const challenger of ['mcts', 'ab'] as const) {
      const games = outcomes.filter((o) => o.pairing === pairing.name && o.challenger === challenger);
      if (games.length === 0) continue;
      const sum = (key: keyof Outcome): number => games.reduce((a, g) => a + (g[key] as number), 0);
      const limits = baselineLimits(pairing);
      const challengerName =
        challenger === 'mcts'
          ? `MCTS ${budget.timeMs !== undefined ? `${budget.timeMs} ms` : `${budget.iterations} it`}`
          : `AB ${limits.timeMs !== undefined ? `${limits.timeMs} ms` : `${limits.maxNodes ?? '∞'} nodes`}`;
      console.log(
        row([
          pairing.name,
          challengerName,
          opponentName,
          wdl(games.filter((g) => g.side === 'tiger')),
          wdl(games.filter((g) => g.side === 'goat')),
          wdl(games),
          (sum('plies') / games.length).toFixed(0),
          `${rate(sum('work'), sum('ms'))} ${challenger === 'mcts' ? 'it' : 'nd'}`,
          (sum('ms') / Math.max(sum('moves'), 1)).toFixed(0),
          rate(sum('opponentNodes'), sum('opponentMs')),
          (sum('opponentMs') / Math.max(sum('opponentMoves'), 1)).toFixed(0),
          (sum('opponentDepth') / Math.max(sum('opponentMoves'), 1)).toFixed(1),
        ]),
      );
    }
  }
}

/** Single-thread speed from set positions, 1 s each: MCTS iterations/s beside alpha-beta nodes/s. */
function speed(): void {
  console.log('speed (bagh-chal, 1 s per position, one thread)');
  for (const [name, text] of Object.entries(SPEED_POSITIONS)) {
    const start = text === undefined ? undefined : parsePosition(text);
    const created = createGame('bagh-chal', {}, start?.ok ? start.value : undefined);
    if (!created.ok) throw new Error(created.error.message);
    let started = performance.now();
    const mcts = mctsChooseMove(created.value, { timeMs: 1_000 }, seededRandom(1));
    const mctsRate = (mcts.iterations / (performance.now() - started)) * 1000;
    started = performance.now();
    const ab = new Searcher().search(created.value, { timeMs: 1_000 });
    const abRate = (ab.nodes / (performance.now() - started)) * 1000;
    const fmt = (x: number): string => Math.round(x).toLocaleString('en-US').padStart(10);
    console.log(
      `  ${name.padEnd(14)} MCTS ${fmt(mctsRate)} iterations/s   alpha-beta ${fmt(abRate)} nodes/s`,
    );
  }
}

async function main(): Promise<void> {
  const pairings = (process.env.BENCH_PAIRINGS ?? 'eq100,eq300,strong')
    .split(',')
    .map((s) => pairingOf(s.trim()));
  const gamesPerPairing = Math.max(2, Number(process.env.BENCH_GAMES ?? 8));
  const baseline = process.env.BENCH_BASELINE ?? 'eq';
  const firstSeed = Number(process.env.BENCH_SEED ?? 1);
  const mctsOptions = JSON.parse(process.env.MCTS_OPTS ?? '{}') as MctsLimits;
  const matches: Match[] = [];
  for (const pairing of pairings) {
    const withBaseline = baseline === 'all' || (baseline === 'eq' && !('level' in pairing.opponent));
    const challengers: Challenger[] = baseline === 'only' ? ['ab'] : withBaseline ? ['mcts', 'ab'] : ['mcts'];
    for (const challenger of challengers) {
      for (let g = 0; g < gamesPerPairing; g++) {
        // Each opening (seed) is played once with the challenger on each side.
        matches.push({
          pairing,
          challenger,
          side: g % 2 === 0 ? 'tiger' : 'goat',
          seed: firstSeed + (g >> 1),
          mctsOptions,
        });
      }
    }
  }
  const workers = Math.max(1, Math.min(availableParallelism(), 2));
  const load = (): string =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  console.log(
    `mcts-bench: bagh-chal, ${gamesPerPairing} games per pairing and challenger, ${matches.length} games, ${workers} workers, MCTS options ${JSON.stringify(mctsOptions)}, load average ${load()}`,
  );
  if (process.env.BENCH_SPEED !== '0') speed();
  const started = performance.now();
  const outcomes: Outcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from(
      { length: workers },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url));
          const feed = (): void => {
            const match = matches[next++];
            if (match) worker.postMessage(match);
            else void worker.terminate().then(() => resolve());
          };
          worker.on('message', (outcome: Outcome) => {
            outcomes.push(outcome);
            if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(outcome));
            feed();
          });
          worker.on('error', reject);
          feed();
        }),
    ),
  );
  console.log(`${((performance.now() - started) / 1000).toFixed(0)} s, load average ${load()}\n`);
  report(pairings, outcomes);
}

if (isMainThread) {
  await main();
} else {
  parentPort!.on('message', (match: Match) => parentPort!.postMessage(playMatch(match)));
}
