import { type Game, makeMove, play, SearchBoard } from '@bagh/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baghChalEndgame } from './endgame.js';
import { DEFAULT_WEIGHTS, WIN_SCORE } from './evaluate.js';
import { endgameOutlook } from './outlook.js';
import { analyse } from './request.js';
import { Searcher } from './search.js';
import { crowdedPoints, crowdedPosition, gameAt } from './test-helpers.js';

/** G@a5 traps the tigers, G@d5 lets them take a goat (see the engine's search test). */
const LAST_PLACEMENT = '1GG1T/TGGTG/GGGGG/GGGGG/TGGGG g 1 0';

/** Both sides keep to the outlook's moves until the race is decided: the plies it took, and how. */
function playOut(start: Game): { plies: number; ending: 'capture' | 'trap' } {
  let game = start;
  for (let plies = 1; plies <= 200; plies++) {
    const outlook = endgameOutlook(game);
    if (!outlook) throw new Error(`no outlook after ${plies - 1} plies`);
    const next = play(game, outlook.move);
    if (!next.ok) throw new Error(next.error.message);
    game = next.value;
    if (game.position.goatsCaptured > 0) return { plies, ending: 'capture' };
    if (game.outcome?.winner === 'goat') return { plies, ending: 'trap' };
  }
  throw new Error('the race never ended');
}

describe('the endgame outlook', () => {
  it('on a full board is the table’s value, and its move keeps to it', () => {
    const table = baghChalEndgame();
    const valueAt = (game: Game) => table.valueOf(new SearchBoard(game.variant, game.options, game.position));
    fc.assert(
      fc.property(crowdedPoints(1), ({ points, goatToMove }) => {
        const game = gameAt('bagh-chal', crowdedPosition(points.slice(0, 4), points.slice(4), goatToMove));
        const outlook = endgameOutlook(game);
        if (game.outcome) return outlook === undefined;
        expect(outlook?.value).toBe(valueAt(game));
        const next = play(game, outlook!.move);
        if (!next.ok) return false;
        const { value } = outlook!;
        if (value === 1) return next.value.position.goatsCaptured === 1;
        // The game ends: the tigers are trapped (R15), or the goats left with no move.
        const winner = next.value.outcome?.winner;
        if (winner) return value === (winner === 'goat' ? -2 : 2);
        // One ply nearer the same end, or still neither.
        return valueAt(next.value) === (value > 0 ? value - 1 : value < 0 ? value + 1 : 0);
      }),
      { numRuns: 300 },
    );
  });

  it('solves the last placements: the trap one placement forces, the capture the other allows', () => {
    const last = gameAt('bagh-chal', LAST_PLACEMENT);
    const outlook = endgameOutlook(last);
    expect(makeMove(outlook!.move)).toBe('G@a5');
    expect(outlook!.value).toBeLessThan(0);
    // Played out, with the tigers holding out as long as they can, the trap takes that long.
    expect(playOut(last)).toEqual({ plies: -outlook!.value - 1, ending: 'trap' });

    const allowed = gameAt('bagh-chal', LAST_PLACEMENT, ['G@d5']);
    const capture = endgameOutlook(allowed);
    expect(capture!.value).toBeGreaterThan(0);
    expect(playOut(allowed)).toEqual({ plies: capture!.value, ending: 'capture' });
  });

  it('stays out of reach with goats taken, too many in hand, or another game', () => {
    expect(endgameOutlook(gameAt('bagh-chal', '1GG1T/TGGTG/GGGGG/GGGG1/TGGGG t 0 1'))).toBeUndefined();
    expect(endgameOutlook(gameAt('bagh-chal', 'T3T/5/5/5/T3T g 20 0'))).toBeUndefined();
    expect(endgameOutlook(gameAt('bagh-chal', '1GG2/TGGTG/GGGGG/GGGGG/TGGGG t 0 0'))).toBeUndefined();
    expect(endgameOutlook(gameAt('bagh-guti', 'T3T/5/5/5/T3T g 20 0'))).toBeUndefined();
  });
});

describe('analysis at the end of placement', () => {
  const ask = (moves: string[], maxDepth: number) =>
    analyse({ variant: 'bagh-chal', options: {}, start: LAST_PLACEMENT, moves, timeMs: 10_000, maxDepth });

  it('says the goats’ forced trap as a win in so many plies, with the move that forces it', () => {
    const reply = ask([], 2);
    const trap = endgameOutlook(gameAt('bagh-chal', LAST_PLACEMENT))!;
    expect(reply).toMatchObject({ bestMove: 'G@a5', mateIn: trap.value + 1, captureIn: null });
    expect(reply.forTigers).toBe(-(WIN_SCORE + reply.mateIn!));
  });

  it('shows the search’s move to goats that cannot save a goat, not the one that only delays it', () => {
    const position = 'GGGGG/GGGGG/GGGGG/GGTGT/TTG1G g 0 0';
    const game = gameAt('bagh-chal', position);
    const delay = endgameOutlook(game)!;
    const searched = new Searcher().search(game, { weights: DEFAULT_WEIGHTS, maxDepth: 2 });
    expect(makeMove(delay.move)).not.toBe(makeMove(searched.move!));
    const reply = analyse({
      variant: 'bagh-chal',
      options: {},
      start: position,
      moves: [],
      timeMs: 10_000,
      maxDepth: 2,
    });
    expect(reply).toMatchObject({ bestMove: makeMove(searched.move!), captureIn: delay.value, mateIn: null });
  });

  it('says the tigers’ forced capture, unless the search proves the goats win all the same', () => {
    const capture = endgameOutlook(gameAt('bagh-chal', LAST_PLACEMENT, ['G@d5']))!;
    expect(ask(['G@d5'], 2)).toMatchObject({
      bestMove: makeMove(capture.move),
      captureIn: capture.value,
      mateIn: null,
    });
    // Six plies deep the search sees the goats trap the tigers after losing the goat.
    const deeper = ask(['G@d5'], 6);
    expect(deeper.mateIn).toBeLessThan(0);
    expect(deeper.captureIn).toBeNull();
  });
});
