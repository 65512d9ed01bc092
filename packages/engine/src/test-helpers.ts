/** Shared by the engine's tests: a game from a position string and some moves; crowded boards. */
import { createGame, type Game, POINT_COUNT, parsePosition, playMoveTexts, type Variant } from '@bagh/rules';
import fc from 'fast-check';

export function gameAt(variant: Variant, position: string, moves: string[] = []): Game {
  const start = parsePosition(position);
  if (!start.ok) throw new Error(start.error.message);
  const created = createGame(variant, {}, start.value);
  if (!created.ok) throw new Error(created.error.message);
  const played = playMoveTexts(created.value, moves);
  if (!played.ok) throw new Error(played.error.message);
  return played.value;
}

/**
 * A Bagh Chal position string with no goat in hand: four tigers, these empty points, goats on
 * every other point (as many taken as there are empty points beyond one).
 */
export function crowdedPosition(tigers: number[], empty: number[], goatToMove: boolean): string {
  const rows: string[] = [];
  for (let row = 4; row >= 0; row--) {
    let text = '';
    for (let column = 0; column < 5; column++) {
      const p = row * 5 + column;
      text += tigers.includes(p) ? 'T' : empty.includes(p) ? '1' : 'G';
    }
    rows.push(text.replace(/1+/g, (run) => String(run.length)));
  }
  return `${rows.join('/')} ${goatToMove ? 'g' : 't'} 0 ${empty.length - 1}`;
}

/** Four distinct tiger points, then `empty` more that are empty, and the side to move. */
export const crowdedPoints = (empty: number) =>
  fc.record({
    points: fc.uniqueArray(fc.integer({ min: 0, max: POINT_COUNT - 1 }), {
      minLength: 4 + empty,
      maxLength: 4 + empty,
    }),
    goatToMove: fc.boolean(),
  });
