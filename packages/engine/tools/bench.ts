/**
 * `pnpm bench:engine`: search speed (nodes/s, depth reached in 1 s from set positions) and a
 * tournament: every level against every other and a random mover, both sides, BENCH_GAMES games
 * per pairing (default 40), on worker threads, on node budgets (no time caps), each game from two
 * opening plies picked at random among sound moves (`soundOpening`). Games are capped at 200 plies
 * (a draw). BENCH_PLAYERS (e.g. `strong,max`) limits the tournament to some players; BENCH_MINUTES
 * (default 600) stops it early and reports the games played by then, round by round alike.
 * BENCH_OPENINGS=all plays every sound opening once per side instead: the whole population the
 * random games sample (the levels play deterministically on node budgets, but for beginner/casual).
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import {
  chooseMove,
  everySoundOpening,
  LEVELS,
  type Level,
  Searcher,
  seededRandom,
  soundOpening,
} from '@bagh/engine';
import { createGame, type Game, legalMoves, type Move, makeMove, parsePosition, play } from '@bagh/rules';

type Player = Level | 'random';
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
}
type Winner = 'tiger' | 'goat' | 'draw';
interface Played {
  readonly winner: Winner;
  /** The random opening plies, so a game can be replayed and studied. */
  readonly opening: string;
  readonly plies: number;
  readonly captures: number;
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
  // Random sound opening plies, so games between deterministic levels differ.
  let game = match.opening ? playOpening(match.opening) : soundOpening(random);
  const opening = game.moves.map(makeMove).join(' ');
  for (let ply = game.moves.length; ply < MAX_PLIES && !game.outcome; ply++) {
    const side = game.position.toMove;
    const player = side === 'tiger' ? match.tiger : match.goat;
    const moves = legalMoves(game);
    const move =
      player === 'random'
        ? moves[Math.floor(random() * moves.length)]!
        : chooseMove(game, player, random, searchers[side], NODE_BUDGETS_ONLY)!.move;
    const played = play(game, move);
    if (!played.ok) throw new Error(played.error.message);
    game = played.value;
  }
  return {
    winner: game.outcome ? game.outcome.winner : 'draw',
    opening,
    plies: game.moves.length,
    captures: game.position.goatsCaptured,
  };
}

function playOpening(moves: readonly Move[]): Game {
  let game = startGame();
  for (const move of moves) {
    const played = play(game, move);
    if (!played.ok) throw new Error(played.error.message);
    game = played.value;
  }
  return game;
}

function speed(): void {
  console.log('search speed (bagh-chal, 1 s per position)');
  for (const [name, position] of Object.entries(SPEED_POSITIONS)) {
    const result = new Searcher().search(startGame(position), { timeMs: 1_000 });
    console.log(
      `  ${name.padEnd(14)} depth ${String(result.depth).padStart(2)}  ${Math.round(result.nodes).toLocaleString('en-US').padStart(10)} nodes/s`,
    );
  }
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
  const results: Array<Match & Played> = [];
  const started = performance.now();
  const deadline = started + minutes * 60_000;
  let next = 0;
  const workers = Math.max(1, Math.min(availableParallelism(), 4));
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
          console.log(
            `  game ${results.length}: ${r.tiger} (tigers) vs ${r.goat} (goats): ${r.winner}` +
              `  (${r.opening}; ${r.plies} plies, ${r.captures} goats taken)`,
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

if (isMainThread) {
  speed();
  await tournament(Number(process.env.BENCH_GAMES ?? 40), Number(process.env.BENCH_MINUTES ?? 600));
} else {
  parentPort!.on('message', (match: Match) => parentPort!.postMessage({ ...match, ...playMatch(match) }));
}
