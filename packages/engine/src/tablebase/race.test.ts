/**
 * The R13 race in a table draw, on a reduced table (the tigers win at the first capture: tier 0,
 * one empty point, solved in memory). The position comes from a game whose history makes the two
 * drawing moves differ: the table, which ignores history, values them alike and its first best
 * move loses the race (so did `max` with the table's wins alone, main's oracle, at 2k–50k nodes);
 * the race search proves that, and plays the move that wins it.
 */
import {
  type Game,
  MAX_MOVES,
  makeMove,
  parsePosition,
  playMoveTexts,
  resolveOptions,
  SearchBoard,
} from '@bagh/rules';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseMove, seededRandom, useMoveOracle } from '../bot.js';
import { gameAt, tierZeroTable } from '../test-helpers.js';
import { raceOracle } from './oracle.js';
import { RACE_PROVEN, RaceSearch, safeToggles } from './race.js';

const { table, probe } = tierZeroTable();
const gameAfter = (start: string, moves: string[]): Game => gameAt('bagh-chal', start, moves);

// Found by a random walk over tier-0 draws: tigers to move at GGGTG/GGTGG/GGGGT/GGG1G/GGGGT.
const game = gameAfter('GGGTG/GGT1G/GGGGG/GGGGT/GGGGT g 0 0', ['e3-d4', 'e2-e3', 'd2-e2']);
const moveTexts = (moves: readonly { move: Parameters<typeof makeMove>[0] }[]) =>
  moves.map((m) => makeMove(m.move));

describe('the race for unrepeated moves in a table draw (R13)', () => {
  afterEach(() => useMoveOracle(null));

  it('sees what the table cannot: of two drawing moves, one loses the race and the other wins it', () => {
    const answer = table.analyse(game);
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.value.result).toBe('draw');
    const drawing = answer.value.moves.filter((m) => m.result === 'draw').map((m) => m.move);
    expect(drawing.sort()).toEqual(['e1-d2', 'e3-d2']);
    // The table's choice, blind to the history: the first of its best moves.
    expect(makeMove(table.bestMove(game)!)).toBe('e1-d2');

    const race = new RaceSearch(probe, 1).search(game, { maxNodes: 5000 });
    expect(race).not.toBeNull();
    expect(moveTexts(race!.scores)).toEqual(['e3-d2', 'e1-d2']);
    expect(race!.scores[0]!.score).toBeGreaterThanOrEqual(RACE_PROVEN);
    expect(race!.scores[1]!.score).toBeLessThanOrEqual(-RACE_PROVEN);
  });

  it('after the table’s choice the goats win the race: every later drawing move of the tigers runs out', () => {
    const after = playMoveTexts(game, ['e1-d2']);
    if (!after.ok) throw new Error(after.error.message);
    const race = new RaceSearch(probe, 1).search(after.value, { maxNodes: 5000 });
    expect(race!.scores[0]!.score).toBeGreaterThanOrEqual(RACE_PROVEN);
  });

  it('the tigers’ race ignores the toggle weight (only the goats’ horizon counts toggles)', () => {
    expect(game.position.toMove).toBe('tiger');
    const plain = new RaceSearch(probe, 1).search(game, { maxNodes: 5000, maxDepth: 4 });
    const weighted = new RaceSearch(probe, 1).search(game, { maxNodes: 5000, maxDepth: 4, toggleWeight: 8 });
    expect(weighted).toEqual(plain);
  });

  it('max plays the race’s winning move through the oracle the bot workers register', () => {
    useMoveOracle(raceOracle(table, 'race', { maxNodes: 5000 }));
    const choice = chooseMove(game, 'max', seededRandom(1), undefined, { maxNodes: 2000 });
    expect(choice && makeMove(choice.move)).toBe('e3-d2');
  });
});

describe('safe toggles at the race horizon', () => {
  const toggles = (position: string): number => {
    const parsed = parsePosition(position);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const board = new SearchBoard('bagh-chal', resolveOptions('bagh-chal'), parsed.value);
    const moves = new Int32Array(MAX_MOVES);
    return safeToggles(board, moves, board.generatePacked(moves, 0));
  };

  it('counts the goats that step between points no tiger can reach, at most 2', () => {
    expect(toggles('TT3/TT3/5/4G/4G g 0 0')).toBe(2);
    expect(toggles('TT3/TT3/5/5/4G g 0 0')).toBe(1);
  });

  it('counts no goat a tiger neighbours, or whose step lands next to a tiger', () => {
    expect(toggles('TT3/TG3/5/5/5 g 0 0')).toBe(0);
    // The goat on c3 steps only to points next to the tigers (b3, c4, b2 … are the tigers' reach).
    expect(toggles('TT3/TT3/2G2/5/5 g 0 0')).toBe(0);
  });

  it('counts the tigers that step off a point no goat neighbours', () => {
    expect(toggles('TT3/TT3/5/4G/4G t 0 0')).toBe(2);
    expect(toggles('TGGGG/GGGGG/GGGGG/GGGGG/GGG1T t 0 0')).toBe(0);
  });
});
