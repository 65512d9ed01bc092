/**
 * Static evaluation, in centipawn-like units from the tigers' point of view: captures dominate,
 * then capture threats, tigers already hemmed in, tiger mobility and goats on open lines. Each
 * side searches with its own weights: the tigers' are hand-set (a symmetric self-play tuning made
 * max weaker as goats), the goats' are tuned for the goats' side by `TUNE_SIDE=goat pnpm
 * tune:engine`. Features at weight 0 were measured and did not help; they stay for the tuner.
 */
import { POINT_COUNT, type SearchBoard } from '@bagh/rules';

const ALL_POINTS = (1 << POINT_COUNT) - 1;

export interface Weights {
  readonly capture: number;
  readonly threat: number;
  readonly mobility: number;
  readonly trappedTiger: number;
  /** Per goat that a tiger could take after one tiger step (an open line through it). */
  readonly exposedGoat: number;
  /** Per empty point next to a tiger: the tigers' room to manoeuvre. */
  readonly tigerRoom: number;
  /** Per empty point a tiger can step to from which it would attack two goats or more at once. */
  readonly forkPoint: number;
  /** Per empty point no tiger can ever reach through empty points: space the goats have sealed. */
  readonly closedSpace: number;
}

export const DEFAULT_WEIGHTS: Weights = {
  capture: 120,
  threat: 30,
  mobility: 4,
  trappedTiger: 45,
  exposedGoat: 0,
  tigerRoom: 0,
  closedSpace: 0,
  forkPoint: 0,
};

/** What the goats search with: tuned for the goats' side by `TUNE_SIDE=goat pnpm tune:engine`. */
export const GOAT_WEIGHTS: Weights = {
  capture: 60,
  threat: 30,
  mobility: 4,
  trappedTiger: 15,
  exposedGoat: 10,
  tigerRoom: 0,
  closedSpace: 0,
  forkPoint: 0,
};

export const WIN_SCORE = 100_000;

/** Goats the tigers must still take to win: R14 counts captures, R24 the goats left. */
export function goatsToWin(board: SearchBoard): number {
  const { tigersWinAtCaptures, tigersWinBelowRemaining } = board.rules;
  if (tigersWinAtCaptures !== null) return tigersWinAtCaptures - board.goatsCaptured;
  return board.goatsOnBoard + board.goatsInHand - (tigersWinBelowRemaining ?? 0) + 1;
}

/** Goats a tiger could take right now if it were the tigers' turn. */
export function threatenedGoats(board: SearchBoard): number {
  const { jumpCount, jumpOver, jumpLand } = board.geometry;
  const empty = board.emptyMask;
  let threatened = 0;
  for (let tg = board.tigers; tg !== 0; tg &= tg - 1) {
    const from = 31 - Math.clz32(tg & -tg);
    const jumps = jumpCount[from]!;
    for (let i = 0; i < jumps; i++) {
      const over = jumpOver[from * 8 + i]!;
      if (((board.goatMask >>> over) & (empty >>> jumpLand[from * 8 + i]!) & 1) !== 0)
        threatened |= 1 << over;
    }
  }
  return threatened;
}

/** Points where a tiger lands when it takes a goat it can take now. */
export function captureLandings(board: SearchBoard): number {
  const { jumpCount, jumpOver, jumpLand } = board.geometry;
  const empty = board.emptyMask;
  let landings = 0;
  for (let tg = board.tigers; tg !== 0; tg &= tg - 1) {
    const from = 31 - Math.clz32(tg & -tg);
    for (let i = 0; i < jumpCount[from]!; i++) {
      const land = jumpLand[from * 8 + i]!;
      if (((board.goatMask >>> jumpOver[from * 8 + i]!) & (empty >>> land) & 1) !== 0) landings |= 1 << land;
    }
  }
  return landings;
}

export function evaluateForTigers(board: SearchBoard, weights: Weights = DEFAULT_WEIGHTS): number {
  const { neighbours, jumpCount, jumpOver, jumpLand } = board.geometry;
  const empty = board.emptyMask;
  let mobility = 0;
  let threats = 0;
  let trapped = 0;
  let threatened = 0;
  for (let tg = board.tigers; tg !== 0; tg &= tg - 1) {
    const from = 31 - Math.clz32(tg & -tg);
    let moves = 0;
    for (let t = neighbours[from]! & empty; t !== 0; t &= t - 1) moves++;
    const jumps = jumpCount[from]!;
    for (let i = 0; i < jumps; i++) {
      const over = jumpOver[from * 8 + i]!;
      if (((board.goatMask >>> over) & (empty >>> jumpLand[from * 8 + i]!) & 1) !== 0) {
        moves++;
        threatened |= 1 << over;
      }
    }
    mobility += moves;
    if (moves === 0) trapped++;
  }
  for (let t = threatened; t !== 0; t &= t - 1) threats++;
  let exposed = 0;
  if (weights.exposedGoat !== 0) {
    let open = 0;
    for (let from = ~board.goatMask & ALL_POINTS; from !== 0; from &= from - 1) {
      const p = 31 - Math.clz32(from & -from);
      const jumps = jumpCount[p]!;
      for (let i = 0; i < jumps; i++) {
        if (((board.goatMask >>> jumpOver[p * 8 + i]!) & (empty >>> jumpLand[p * 8 + i]!) & 1) !== 0)
          open |= 1 << jumpOver[p * 8 + i]!;
      }
    }
    for (let t = open; t !== 0; t &= t - 1) exposed++;
  }
  let room = 0;
  if (weights.tigerRoom !== 0) {
    let reach = 0;
    for (let tg = board.tigers; tg !== 0; tg &= tg - 1) reach |= neighbours[31 - Math.clz32(tg & -tg)]!;
    for (let t = reach & empty; t !== 0; t &= t - 1) room++;
  }
  let forks = 0;
  if (weights.forkPoint !== 0) {
    let steps = 0;
    for (let tg = board.tigers; tg !== 0; tg &= tg - 1) steps |= neighbours[31 - Math.clz32(tg & -tg)]!;
    for (let e = steps & empty; e !== 0; e &= e - 1) {
      const p = 31 - Math.clz32(e & -e);
      let attacked = 0;
      for (let i = 0; i < jumpCount[p]! && attacked < 2; i++) {
        if (((board.goatMask >>> jumpOver[p * 8 + i]!) & (empty >>> jumpLand[p * 8 + i]!) & 1) !== 0)
          attacked++;
      }
      if (attacked >= 2) forks++;
    }
  }
  let closed = 0;
  if (weights.closedSpace !== 0) {
    // Flood from the tigers through empty points (and over goats they can take now).
    let reach = board.tigers | (captureLandings(board) & empty);
    let frontier = reach;
    while (frontier !== 0) {
      let next = 0;
      for (let f = frontier; f !== 0; f &= f - 1) next |= neighbours[31 - Math.clz32(f & -f)]!;
      frontier = next & empty & ~reach;
      reach |= frontier;
    }
    for (let t = empty & ~reach; t !== 0; t &= t - 1) closed++;
  }
  // Far from the win, captures are worth the same; the last ones are worth more.
  const toWin = Math.max(goatsToWin(board), 1);
  return (
    weights.capture * (board.goatsCaptured + 6 / toWin) +
    weights.threat * threats +
    weights.mobility * mobility -
    weights.trappedTiger * trapped +
    weights.exposedGoat * exposed +
    weights.tigerRoom * room +
    weights.forkPoint * forks -
    weights.closedSpace * closed
  );
}
