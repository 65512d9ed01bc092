/** Shared by the engine's tests: a game from a position string and some moves; crowded boards; a trap solver. */
import {
  createGame,
  type Game,
  historyOf,
  MAX_MOVES,
  POINT_COUNT,
  parsePosition,
  playMoveTexts,
  SearchBoard,
  type Variant,
} from '@bagh/rules';
import fc from 'fast-check';
import { type BoardProbe, Tablebase } from './tablebase/probe.js';
import { solveTier } from './tablebase/solver.js';

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

/**
 * Exact AND-OR search on the rules, with the game's history (R13): can the goats leave the
 * tigers with no legal move (R15) within `plies` plies, whatever the tigers do?
 */
export function goatsForceTrap(game: Game, plies: number): boolean {
  const board = new SearchBoard(game.variant, game.options, game.position);
  const history = historyOf(game).clone();
  const buffers: Int32Array[] = [];
  const solve = (left: number, ply: number): boolean => {
    buffers[ply] ??= new Int32Array(MAX_MOVES);
    const moves = buffers[ply]!;
    const count = board.generatePacked(moves, 0);
    const goats = board.goatToMove;
    if (goats && left === 0) return false;
    for (let i = 0; i < count; i++) {
      board.makePacked(moves[i]!);
      if (board.repeats(history)) {
        board.unmakePacked(moves[i]!);
        continue;
      }
      board.record(history);
      const trapped = !board.tigersHaveWon() && left > 0 && solve(left - 1, ply + 1);
      board.unrecord(history);
      board.unmakePacked(moves[i]!);
      // The goats need one move that traps; the tigers escape with one move that does not.
      if (trapped === goats) return goats;
    }
    return !goats;
  };
  return solve(plies, 0);
}

/** A reduced table solved in memory: the tigers win at the first capture (tier 0, one empty point). */
export function tierZeroTable(): { table: Tablebase; probe: BoardProbe } {
  const table = Tablebase.fromArrays([solveTier(0, null)], 1);
  return {
    table,
    probe: (tigers, goats, captured, goatToMove) => table.valueAt(tigers, goats, captured, goatToMove),
  };
}
