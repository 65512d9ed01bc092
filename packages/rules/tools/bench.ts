/**
 * `pnpm bench`: perft leaves per second (bagh-chal depth 7, the others depth 6) and `play` calls
 * per second along pseudo-random games, per variant. Numbers, not pass/fail: the machine is shared.
 * First it checks the deep perft counts too heavy for the test suite (exit code 1 when one is off).
 */
import {
  createGame,
  type Game,
  legalMoves,
  makeRecord,
  type Options,
  parseRecord,
  perft,
  perftGeneral,
  play,
  playMoveTexts,
  VARIANTS,
  type Variant,
} from '@bagh/rules';

const PERFT_DEPTH: Record<Variant, number> = { 'bagh-chal': 7, 'bagh-guti': 6, 'bagh-bandi': 6 };

/** The deep perft rows (perft.test.ts pins the shallower ones): millions of leaves, some on the general path. */
const DEEP_PERFT: ReadonlyArray<[Variant, Partial<Options>, number, number]> = [
  ['bagh-chal', {}, 6, 18_592_000],
  ['bagh-chal', {}, 7, 339_123_476],
  ['bagh-guti', {}, 6, 20_976_400],
  ['bagh-guti', { goatsFirst: true }, 6, 17_356_622],
  ['bagh-guti', { multiJump: true }, 5, 4_452_084],
  ['bagh-guti', { noRepeat: true }, 5, 720_656],
];

function newGame(variant: Variant, options: Partial<Options> = {}): Game {
  const created = createGame(variant, options);
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

for (const [variant, options, depth, expected] of DEEP_PERFT) {
  const leaves = perft(newGame(variant, options), depth);
  const name = `perft ${variant} ${JSON.stringify(options)} depth ${depth}`;
  if (leaves !== expected) {
    console.error(`${name} = ${leaves}, expected ${expected}`);
    process.exitCode = 1;
  } else console.log(`${name} = ${leaves}`);
}

function timed<T>(run: () => T): { value: T; seconds: number } {
  const start = process.hrtime.bigint();
  const value = run();
  return { value, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

/** A fixed linear congruential sequence, so every run plays the same games. */
function* choices(seed: number): Generator<number> {
  let x = seed >>> 0;
  for (;;) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    yield x;
  }
}

function playRandomGames(variant: Variant, plays: number): number {
  const pick = choices(7);
  let done = 0;
  while (done < plays) {
    let game = newGame(variant);
    for (let ply = 0; ply < 300 && done < plays; ply++) {
      const moves = legalMoves(game);
      if (moves.length === 0) break;
      const result = play(game, moves[pick.next().value % moves.length]!);
      if (!result.ok) throw new Error(result.error.message);
      game = result.value;
      done++;
    }
  }
  return done;
}

/** Runs `count` until at least a second has passed; returns units per second. */
function rate(count: () => number): number {
  count(); // warm-up
  let units = 0;
  let seconds = 0;
  while (seconds < 1) {
    const run = timed(count);
    units += run.value;
    seconds += run.seconds;
  }
  return units / seconds;
}

const rows: string[][] = [
  ['variant', 'depth', 'leaves', 'M leaves/s', 'baseline M/s', 'ratio', 'play calls/s'],
];
for (const variant of VARIANTS) {
  const depth = PERFT_DEPTH[variant];
  const leaves = perft(newGame(variant), depth);
  const fast = rate(() => perft(newGame(variant), depth));
  const baselineDepth = depth - 2;
  const baseline = rate(() => perftGeneral(newGame(variant), baselineDepth));
  const plays = rate(() => playRandomGames(variant, 20_000));
  rows.push([
    variant,
    String(depth),
    String(leaves),
    (fast / 1e6).toFixed(1),
    (baseline / 1e6).toFixed(2),
    `${(fast / baseline).toFixed(0)}x`,
    Math.round(plays).toLocaleString('en-US'),
  ]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const row of rows) console.log(row.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
console.log(
  'baseline: the same tree two plies shallower through the general path (perftGeneral, move objects)',
);

// A record replayed (an import, a room loaded): each move copies the game's move list, so a long
// game costs more per move; rooms keep at most 2,000 (MAX_PLIES in @bagh/protocol).
function loopRecord(plies: number): string {
  // Bagh Guti without noRepeat never ends: a tiger and a goat step to and fro.
  const texts = ['c3-c2', 'd2-e1'];
  for (let ply = 2; ply < plies; ply++) texts.push(['c2-c3', 'e1-d1', 'c3-c2', 'd1-e1'][(ply - 2) % 4]!);
  const game = playMoveTexts(newGame('bagh-guti'), texts);
  if (!game.ok) throw new Error(game.error.message);
  return makeRecord(game.value, { result: { winner: 'goat', reason: 'resign' } });
}
const replayRate = (plies: number): number => {
  const record = loopRecord(plies);
  return rate(() => {
    if (!parseRecord(record).ok) throw new Error('the loop record does not parse');
    return plies;
  });
};
const [short, long] = [replayRate(200), replayRate(2_000)];
console.log(
  `record replay (parseRecord, a looping Bagh Guti game): 200 plies ${Math.round(short).toLocaleString('en-US')} plies/s, ` +
    `2,000 plies ${Math.round(long).toLocaleString('en-US')} plies/s (${(short / long).toFixed(2)}x the cost a ply)`,
);
