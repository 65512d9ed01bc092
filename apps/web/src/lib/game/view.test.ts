import { MAX_PLIES } from '@bagh/protocol/limits';
import { gameFromMoves, makeMove } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { snapshotFixture } from '../test-fixtures.js';
import {
  atMoveCap,
  boardModel,
  boardWithWaitingMove,
  capturedText,
  errorText,
  gameBoardModel,
  goatsRemaining,
  moveCapText,
  numberedMoves,
  recordErrorText,
  resultText,
  snapshotAtPly,
} from './view.js';

const base = snapshotFixture({ spectators: 2 });

describe('view', () => {
  it('shows a waiting move played, with nothing more to click; none for a move that does not play', () => {
    const waiting = boardWithWaitingMove(base, 'goat', false, 'G@c3')!;
    const before = boardModel(base, 'goat', false)!;
    expect(waiting.goats.reduce((a, b) => a + b, 0)).toBe(before.goats.reduce((a, b) => a + b, 0) + 1);
    expect(waiting.ply).toBe(1);
    expect(waiting.viewOnly).toBe(true);
    expect(waiting.moves).toEqual([]);
    expect(boardWithWaitingMove(base, 'goat', false, 'a1-b1')).toBeNull(); // a goat's turn
  });

  it('offers no move at the most moves a room keeps, and says how the game can end there', () => {
    const capped = { ...base, moves: Array.from({ length: MAX_PLIES }, () => 'G@c3') };
    expect(atMoveCap(capped)).toBe(true);
    expect(boardModel(capped, 'goat', false)?.moves).toEqual([]);
    expect(atMoveCap({ ...capped, moves: capped.moves.slice(1) })).toBe(false);
    expect(atMoveCap({ ...capped, result: { winner: null, reason: 'agreement' } })).toBe(false);
    expect(moveCapText()).toBe('2,000 moves: the game keeps no more. Offer a draw or resign.');
  });

  it('hints moves only to the side to move, and flips for the tiger player', () => {
    expect(boardModel(base, 'goat', false)?.moves).toHaveLength(21);
    expect(boardModel(base, 'goat', false)?.flipped).toBe(false);
    const tiger = boardModel(base, 'tiger', false)!;
    expect(tiger.moves).toHaveLength(0);
    expect(tiger.flipped).toBe(true);
    expect(boardModel(base, 'tiger', true)?.flipped).toBe(false);
    const watcher = boardModel(base, 'spectator', false)!;
    expect(watcher.viewOnly).toBe(true);
    expect(watcher.moves).toHaveLength(0);
  });

  it('reads the last move and Bagh Guti stacks', () => {
    const m = boardModel(
      {
        ...base,
        variant: 'bagh-guti',
        position: '2T2/1G(5)1G(5)1/2T2/1G(5)1G(5)1/5 t 0 0',
        toMove: 'tiger',
        goatsInHand: 0,
      },
      'tiger',
      false,
    )!;
    expect(m.goats.filter((g) => g === 5)).toHaveLength(4);
    expect(m.moves.map(makeMove)).toContain('c3-c2');
    const last = boardModel({ ...base, moves: ['G@c3'] }, 'goat', false)!;
    expect(last.lastMove && makeMove(last.lastMove)).toBe('G@c3');
  });

  it('steps through a record imported with its own start position from that position', () => {
    const start = 'T3T/5/2G2/5/T3T t 19 0';
    const imported = snapshotFixture({
      start,
      position: 'T3T/5/2GG1/5/1T2T t 18 0',
      moves: ['a1-b1', 'G@d3'],
      toMove: 'tiger',
      goatsInHand: 18,
      imported: true,
      result: null,
    });
    expect(snapshotAtPly(imported, 0)).toMatchObject({
      position: start,
      moves: [],
      toMove: 'tiger',
      goatsInHand: 19,
    });
    expect(snapshotAtPly(imported, 1)).toMatchObject({
      position: 'T3T/5/2G2/5/1T2T g 19 0',
      moves: ['a1-b1'],
    });
    // From the variant's start, a1-b1 is not the goats' move: no position to show.
    expect(snapshotAtPly({ ...imported, start: undefined }, 1)).toBeNull();
  });

  it('formats counts, moves, results and errors', () => {
    expect(capturedText('bagh-chal', 3)).toBe('3/5');
    expect(capturedText('bagh-guti', 3)).toBe('3');
    expect(numberedMoves(['G@c3', 'a1-b2', 'G@d4'])).toEqual([
      { n: 1, moves: ['G@c3', 'a1-b2'] },
      { n: 2, moves: ['G@d4'] },
    ]);
    expect(resultText({ winner: 'tiger', reason: 'captures' })).toBe('Tigers win — enough goats captured');
    expect(errorText({ code: 'SEAT_TAKEN', message: 'x' })).toBe('That seat has just been taken.');
    expect(errorText({ code: 'WHATEVER', message: 'raw' })).toBe('raw');
    expect(errorText({ code: 'RATE_LIMITED', message: 'at most 3 games against the computer at once' })).toBe(
      'Slow down a little (at most 3 games against the computer at once).',
    );
    expect(errorText({ code: 'RATE_LIMITED' })).toBe('Slow down a little.');
  });

  it("says why a record was not opened: the server's parse error, else the client's own words", () => {
    const parse = 'line 3: "x9" is not a move';
    expect(recordErrorText({ code: 'BAD_REQUEST', message: parse })).toBe(parse);
    // A store fault or a server problem: not the server's English, the page's language.
    const store = 'the game could not be saved or read; try again';
    expect(recordErrorText({ code: 'UNAVAILABLE', message: store })).toBe(
      'The game could not be saved; try again.',
    );
    expect(recordErrorText({ code: 'INTERNAL', message: 'boom' })).toBe('The server had a problem.');
    expect(recordErrorText({ code: 'OFFLINE', message: 'The server cannot be reached.' })).toBe(
      'The server cannot be reached.',
    );
  });

  it('draws a game held in the browser', () => {
    const played = gameFromMoves({ variant: 'bagh-guti', moves: ['c3-c2', 'b2-a1'] });
    if (!played.ok) throw new Error(played.error.message);
    const game = played.value;
    const tiger = gameBoardModel(game, 'tiger', true, false);
    expect(tiger).toMatchObject({ kind: 'alquerque', flipped: true, viewOnly: false, ply: 2 });
    expect(tiger.moves.length).toBeGreaterThan(0);
    expect(tiger.lastMove && makeMove(tiger.lastMove)).toBe('b2-a1');
    expect(gameBoardModel(game, 'goat', false, true)).toMatchObject({
      flipped: true,
      viewOnly: true,
      moves: [],
    });
    expect(goatsRemaining(game.position)).toBe(20);
  });
});
