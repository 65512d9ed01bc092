/**
 * Static evaluation, in centipawn-like units from the tigers' point of view: captures dominate,
 * then capture threats, tigers already hemmed in, and tiger mobility. `pnpm tune:engine` tunes
 * these by self-play; its best find ({192, 30, 2, 45}: 25/40 against these in symmetric matches)
 * made max lose as goats to strong in the tournament, so these hand-set weights stay.
 */
import type { SearchBoard } from '@bagh/rules';

export interface Weights {
  readonly capture: number;
  readonly threat: number;
  readonly mobility: number;
  readonly trappedTiger: number;
}

export const DEFAULT_WEIGHTS: Weights = { capture: 120, threat: 30, mobility: 4, trappedTiger: 45 };

export const WIN_SCORE = 100_000;

/** Goats the tigers must still take to win: R14 counts captures, R24 the goats left. */
export function goatsToWin(board: SearchBoard): number {
  const { tigersWinAtCaptures, tigersWinBelowRemaining } = board.rules;
  if (tigersWinAtCaptures !== null) return tigersWinAtCaptures - board.goatsCaptured;
  return board.goatsOnBoard + board.goatsInHand - (tigersWinBelowRemaining ?? 0) + 1;
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
  // Far from the win, captures are worth the same; the last ones are worth more.
  const toWin = Math.max(goatsToWin(board), 1);
  return (
    weights.capture * (board.goatsCaptured + 6 / toWin) +
    weights.threat * threats +
    weights.mobility * mobility -
    weights.trappedTiger * trapped
  );
}
