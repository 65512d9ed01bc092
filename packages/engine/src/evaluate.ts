/**
 * Static evaluation, in centipawn-like units from the tigers' point of view: captures dominate,
 * then capture threats, tigers already hemmed in, tiger mobility, goats on open lines and, once all
 * goats are placed, goats short of safe moves. Each side searches with its own weights: the
 * tigers' are hand-set (a symmetric self-play tuning made max weaker as goats), the goats' are tuned for the goats' side by `TUNE_SIDE=goat pnpm
 * tune:engine` and, for `centralTiger`, by max's goats against strong's tigers over every match
 * opening (games lost 6 → 1 of 48). Features measured and dropped (no gain): tiger room, sealed
 * empty space, fork points, empty points a goat cannot enter (see issue 7's notes).
 */
import { lowestPoint, POINT_COUNT, popcount, type SearchBoard } from '@bagh/rules';

export interface Weights {
  readonly capture: number;
  readonly threat: number;
  readonly mobility: number;
  readonly trappedTiger: number;
  /** Per goat that a tiger could take after one tiger step (an open line through it). */
  readonly exposedGoat: number;
  /** Per tiger on a point with the most lines (b2 d2 c3 b4 d4 on the alquerque board). */
  readonly centralTiger: number;
  /**
   * Against the tigers per free point they lack (below LOCKED_ROOM) in a locked movement phase
   * under R13: the game is then a race for unrepeated moves, which hemmed-in tigers lose. 300 by
   * max against max (this term 0) from the bench's locked starts, both sides, 20k nodes a move:
   * 150 won 19 of 40, 300 22, 500 21, 800 20 (noise-level, so the middle).
   */
  readonly lockedRace: number;
  /**
   * Against the goats per safe move they lack (goatsCramped) once all are placed. Goats only; by
   * the tablebase, on sliding-phase positions of bench games where some goat move loses and
   * another keeps the draw, max on 20k nodes kept it in 1,581 of 1,644 with 0; with capture 60,
   * 1,602 with 40, 1,608 with 80, 1,606 with 140; with capture 120, 1,604 with 80, 1,611 with 160.
   * Against old max on 50k nodes, 160 against 80: openings as goats 27-1-20 against 26-2-20,
   * locked starts as goats 9-1-10 against 6-1-13; 240: 28-5-15 and 8-2-10 (on 20k nodes 20-4-24
   * and 9-0-11 against 26-1-21 and 8-0-12: noise), 320: 25-4-19 and 9-0-11.
   */
  readonly crampedGoats: number;
}

export const DEFAULT_WEIGHTS: Weights = {
  capture: 120,
  threat: 30,
  mobility: 4,
  trappedTiger: 45,
  exposedGoat: 0,
  centralTiger: 0,
  lockedRace: 300,
  crampedGoats: 0,
};

/**
 * What the goats search with: tuned for the goats' side by `TUNE_SIDE=goat pnpm tune:engine`.
 * lockedRace 0: with 300 max's goats won 8 of 20 locked starts against the old max (5 without)
 * but 1 of 8 games from sound openings (3 without), on 100k nodes a move; with 150 (late-move
 * reductions on), 7 of 20 locked starts (5 without) but 19 of 48 openings (22 without), 50k nodes.
 * capture 120 (was 60) with crampedGoats: a goat must outweigh a safe move, or the goats give goats
 * in the placement for room later (placement captures in 48 games on 20k nodes: 40 before, 53 with
 * crampedGoats and capture 60, 39 with 120); max's goats against old max on 50k nodes 24-1-23 with
 * 60, 26-2-20 with 120 (22-0-26 before crampedGoats).
 */
export const GOAT_WEIGHTS: Weights = {
  capture: 120,
  threat: 30,
  mobility: 4,
  trappedTiger: 15,
  exposedGoat: 10,
  centralTiger: 30,
  lockedRace: 0,
  crampedGoats: 160,
};

export const WIN_SCORE = 100_000;

/** Goats the tigers must still take to win: R14 counts captures, R24 the goats left. */
export function goatsToWin(board: SearchBoard): number {
  const { tigersWinAtCaptures, tigersWinBelowRemaining } = board.rules;
  if (tigersWinAtCaptures !== null) return tigersWinAtCaptures - board.goatsCaptured;
  return board.goatsOnBoard + board.goatsInHand - (tigersWinBelowRemaining ?? 0) + 1;
}

export interface CaptureScan {
  /** Goats a tiger could take right now if it were the tigers' turn. */
  threatened: number;
  /** Points where a tiger lands taking them. */
  landings: number;
}

const scan: CaptureScan = { threatened: 0, landings: 0 };

/** The captures open to the tigers, in one pass; the result is reused by the next call. */
export function scanCaptures(board: SearchBoard): Readonly<CaptureScan> {
  const { jumpCount, jumpOver, jumpLand } = board.geometry;
  const empty = board.emptyMask;
  let threatened = 0;
  let landings = 0;
  for (let tg = board.tigers; tg !== 0; tg &= tg - 1) {
    const from = lowestPoint(tg);
    for (let i = 0; i < jumpCount[from]!; i++) {
      const over = jumpOver[from * 8 + i]!;
      const land = jumpLand[from * 8 + i]!;
      if (((board.goatMask >>> over) & (empty >>> land) & 1) !== 0) {
        threatened |= 1 << over;
        landings |= 1 << land;
      }
    }
  }
  scan.threatened = threatened;
  scan.landings = landings;
  return scan;
}

type Geometry = SearchBoard['geometry'];
const centralMasks = new WeakMap<Geometry, number>();

/** The points with the most lines: from there a tiger has the most ways to move and to take. */
function centralPoints(geometry: Geometry): number {
  let mask = centralMasks.get(geometry);
  if (mask === undefined) {
    const lines = Array.from({ length: POINT_COUNT }, (_, p) => popcount(geometry.neighbours[p]!));
    const most = Math.max(...lines);
    mask = lines.reduce((m, count, p) => (count === most ? m | (1 << p) : m), 0);
    centralMasks.set(geometry, mask);
  }
  return mask;
}

/** Tigers with fewer free points than this around them, and nothing to take, are locked in. */
export const LOCKED_ROOM = 3;

/**
 * How far the tigers are locked in, 0 … LOCKED_ROOM: under R13 a locked position is no fortress but
 * a race, each side spending positions it may not repeat, and tigers shuffling over one or two
 * free points run out long before goats with moves to spare (issue 21's lost game). 0 when the
 * rule is off, goats are still in hand, a capture is open or the goats have no spare move.
 */
export function lockedIn(board: SearchBoard, threatened: number): number {
  if (!board.noRepeat || board.goatsInHand > 0 || threatened !== 0) return 0;
  const { neighbours } = board.geometry;
  const empty = board.emptyMask;
  let room = 0;
  for (let tg = board.tigers; tg !== 0; tg &= tg - 1) room |= neighbours[lowestPoint(tg)]! & empty;
  const free = popcount(room);
  if (free >= LOCKED_ROOM) return 0;
  // The goats need a move of their own that stays clear of the tigers' room.
  for (let e = empty & ~room; e !== 0; e &= e - 1)
    if ((neighbours[lowestPoint(e)]! & board.goatMask) !== 0) return LOCKED_ROOM - free;
  return 0;
}

/** Safe goat moves counted up to this many: past it the goats have moves to spare. */
export const SPARE_SAFE_MOVES = 3;

/** Per direction, each of +1, +5, +6, +4 (the difference of the points' numbers) then its opposite. */
const SHIFTS = [1, 5, 6, 4] as const;

/** Where a step, or a jump, can start, by direction (2k: +SHIFTS[k], 2k + 1: −SHIFTS[k]). */
interface Directions {
  readonly stepFrom: Int32Array;
  readonly jumpFrom: Int32Array;
}
const directionTables = new WeakMap<Geometry, Directions>();

function directionsOf(geometry: Geometry): Directions {
  let tables = directionTables.get(geometry);
  if (tables === undefined) {
    const stepFrom = new Int32Array(8);
    const jumpFrom = new Int32Array(8);
    for (let p = 0; p < POINT_COUNT; p++)
      for (let k = 0; k < 8; k++) {
        const d = (k & 1) === 0 ? SHIFTS[k >> 1]! : -SHIFTS[k >> 1]!;
        const q = p + d;
        if (q < 0 || q >= POINT_COUNT || ((geometry.neighbours[p]! >>> q) & 1) === 0) continue;
        stepFrom[k]! |= 1 << p;
        if (geometry.jumpOverBetween[p * POINT_COUNT + q + d] === q) jumpFrom[k]! |= 1 << p;
      }
    tables = { stepFrom, jumpFrom };
    directionTables.set(geometry, tables);
  }
  return tables;
}

/** Scratch for safeGoatSteps, by direction: goats a tiger could take that way; empty points a tiger could jump that way. */
const oversBy = new Int32Array(8);
const tigerBehind = new Int32Array(8);

/** Goats on a line a tiger could use: the point on one side is free of goats, the other empty. */
export function exposedGoats(board: SearchBoard): number {
  const { jumpFrom } = directionsOf(board.geometry);
  const { goatMask } = board;
  const free = ~goatMask;
  const empty = board.emptyMask;
  let open = 0;
  for (let k = 0; k < 4; k++) {
    const d = SHIFTS[k]!;
    open |=
      (((free & jumpFrom[2 * k]!) << d) & (empty >>> d)) |
      (((free & jumpFrom[2 * k + 1]!) >>> d) & (empty << d));
  }
  return popcount(open & goatMask);
}

/**
 * The goat steps (at most `enough`) after which no tiger can take a goat, with these tigers, by
 * bit masks per direction. A step g→e opens a jump over the stepped goat (into another empty
 * point, or back onto g), over another goat onto g, or leaves one of the jumps already open
 * (unless it lands on e or takes g).
 */
function safeGoatSteps(
  tigers: number,
  goatMask: number,
  empty: number,
  { stepFrom, jumpFrom }: Directions,
  enough: number,
): number {
  // Where a tiger lands jumping a goat, empty or not; empty points where a goat stepping in is
  // taken into another empty point; where the open jumps land.
  let landings = 0;
  let exposedTo = 0;
  let open = 0;
  for (let k = 0; k < 4; k++) {
    const d = SHIFTS[k]!;
    const up = (tigers & jumpFrom[2 * k]!) << d;
    const down = (tigers & jumpFrom[2 * k + 1]!) >>> d;
    const emptyUp = empty >>> d;
    const emptyDown = empty << d;
    landings |= ((up & goatMask) << d) | ((down & goatMask) >>> d);
    exposedTo |= (up & emptyUp) | (down & emptyDown);
    const oversUp = up & goatMask & emptyUp;
    const oversDown = down & goatMask & emptyDown;
    oversBy[2 * k] = oversUp;
    oversBy[2 * k + 1] = oversDown;
    open |= (oversUp << d) | (oversDown >>> d);
    tigerBehind[2 * k] = up & empty;
    tigerBehind[2 * k + 1] = down & empty;
  }
  const movers = goatMask & ~landings;
  const targets = empty & ~exposedTo;
  if (open === 0) return Math.min(stepsInto(targets, movers, stepFrom), enough);
  // The open jumps not landing on the step's point must all take the one goat that steps.
  let safe = 0;
  for (let e = targets; e !== 0 && safe < enough; e &= e - 1) {
    const to = e & -e;
    let overs = 0;
    for (let k = 0; k < 4; k++)
      overs |= (oversBy[2 * k]! & ~(to >>> SHIFTS[k]!)) | (oversBy[2 * k + 1]! & ~(to << SHIFTS[k]!));
    const from = overs === 0 ? movers : (overs & (overs - 1)) === 0 ? movers & overs : 0;
    if (from !== 0) safe += stepsInto(to, from, stepFrom);
  }
  return Math.min(safe, enough);
}

/** Steps from `from` into `to` after which no tiger beyond the goat takes it back onto where it came from. */
function stepsInto(to: number, from: number, stepFrom: Int32Array): number {
  let steps = 0;
  for (let k = 0; k < 4; k++) {
    const d = SHIFTS[k]!;
    steps +=
      popcount(from & stepFrom[2 * k]! & ((to & ~tigerBehind[2 * k + 1]!) >>> d)) +
      popcount(from & stepFrom[2 * k + 1]! & ((to & ~tigerBehind[2 * k]!) << d));
  }
  return steps;
}

/**
 * How short the goats are of safe moves once all are placed, 0 … SPARE_SAFE_MOVES: counted now when
 * they are to move, else after the tigers' most cramping step. Goats out of safe moves must give
 * a goat (zugzwang), and positions the tablebase loses for them are mostly ones where the tigers
 * can step to leave them few: the draw-keeping move left more safe moves after the tigers' best
 * step than a losing one in 71% of pairs and fewer in 9% (sliding-phase positions of bench games).
 */
export function goatsCramped(board: SearchBoard): number {
  const { goatMask } = board;
  // Stacks (Bagh Guti) stay put when their top goat steps: the count below is for single goats.
  if (board.goatsInHand > 0 || board.goatsOnBoard !== popcount(goatMask)) return 0;
  const empty = board.emptyMask;
  const directions = directionsOf(board.geometry);
  if (board.goatToMove)
    return SPARE_SAFE_MOVES - safeGoatSteps(board.tigers, goatMask, empty, directions, SPARE_SAFE_MOVES);
  let fewest = SPARE_SAFE_MOVES;
  for (let tg = board.tigers; tg !== 0 && fewest > 0; tg &= tg - 1) {
    const from = lowestPoint(tg);
    for (let step = board.geometry.neighbours[from]! & empty; step !== 0 && fewest > 0; step &= step - 1) {
      const to = lowestPoint(step);
      const tigers = (board.tigers & ~(1 << from)) | (1 << to);
      const left = (empty & ~(1 << to)) | (1 << from);
      fewest = Math.min(fewest, safeGoatSteps(tigers, goatMask, left, directions, fewest));
    }
  }
  return SPARE_SAFE_MOVES - fewest;
}

export function evaluateForTigers(board: SearchBoard, weights: Weights = DEFAULT_WEIGHTS): number {
  const { neighbours, jumpCount, jumpOver, jumpLand } = board.geometry;
  const empty = board.emptyMask;
  let mobility = 0;
  let trapped = 0;
  let threatened = 0;
  for (let tg = board.tigers; tg !== 0; tg &= tg - 1) {
    const from = lowestPoint(tg);
    let moves = popcount(neighbours[from]! & empty);
    for (let i = 0; i < jumpCount[from]!; i++) {
      const over = jumpOver[from * 8 + i]!;
      if (((board.goatMask >>> over) & (empty >>> jumpLand[from * 8 + i]!) & 1) !== 0) {
        moves++;
        threatened |= 1 << over;
      }
    }
    mobility += moves;
    if (moves === 0) trapped++;
  }
  const exposed = weights.exposedGoat === 0 ? 0 : exposedGoats(board);
  const central = weights.centralTiger === 0 ? 0 : popcount(board.tigers & centralPoints(board.geometry));
  const locked = weights.lockedRace === 0 ? 0 : lockedIn(board, threatened);
  const cramped = weights.crampedGoats === 0 ? 0 : goatsCramped(board);
  // Far from the win, captures are worth the same; the last ones are worth more.
  const toWin = Math.max(goatsToWin(board), 1);
  return (
    weights.capture * (board.goatsCaptured + 6 / toWin) +
    weights.threat * popcount(threatened) +
    weights.mobility * mobility -
    weights.trappedTiger * trapped +
    weights.exposedGoat * exposed +
    weights.centralTiger * central -
    weights.lockedRace * locked +
    weights.crampedGoats * cramped
  );
}
