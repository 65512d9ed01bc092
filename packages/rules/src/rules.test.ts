import { describe, expect, it } from 'vitest';
import { createGame, legalMoves, play, playMoveText } from './game.js';
import { areNeighbours, GEOMETRIES, makePoint, parsePoint, pointsOf } from './geometry.js';
import { parseMove } from './notation/move.js';
import { makePosition } from './notation/position.js';
import { gameOf, moveTexts } from './test-helpers.js';
import { VARIANTS } from './types.js';
import { choosableOptions, chosenOptions, unsupportedOptions } from './variants.js';

const P = (name: string): number => parsePoint(name)!;
const names = (mask: number): string[] => pointsOf(mask).map(makePoint).sort();

describe('R1 points and coordinates', () => {
  it('has 25 points a1…e5, letter = column from the left, digit = row from the bottom', () => {
    expect(P('a1')).toBe(0);
    expect(P('e1')).toBe(4);
    expect(P('a5')).toBe(20);
    expect(P('e5')).toBe(24);
    expect(Array.from({ length: 25 }, (_, p) => parsePoint(makePoint(p)))).toEqual(
      Array.from({ length: 25 }, (_, p) => p),
    );
    expect(parsePoint('f1')).toBeUndefined();
    expect(parsePoint('a6')).toBeUndefined();
  });
  it('joins every point to its orthogonal neighbours', () => {
    expect(names(GEOMETRIES.orthogonal.neighbours[P('c3')]!)).toEqual(['b3', 'c2', 'c4', 'd3']);
    expect(names(GEOMETRIES.orthogonal.neighbours[P('a1')]!)).toEqual(['a2', 'b1']);
  });
});

describe('R2 alquerque diagonals', () => {
  it('adds diagonals exactly at points whose column + row is even', () => {
    const withDiagonals = [];
    for (let p = 0; p < 25; p++) {
      if (GEOMETRIES.alquerque.neighbours[p] !== GEOMETRIES.orthogonal.neighbours[p])
        withDiagonals.push(makePoint(p));
    }
    expect(withDiagonals.sort()).toEqual(
      ['a1', 'c1', 'e1', 'b2', 'd2', 'a3', 'c3', 'e3', 'b4', 'd4', 'a5', 'c5', 'e5'].sort(),
    );
  });
  it('draws a1–e5, a5–e1 and the diamond a3–c5–e3–c1', () => {
    const alq = GEOMETRIES.alquerque;
    for (const [a, b] of [
      ['a1', 'b2'],
      ['b2', 'c3'],
      ['d4', 'e5'],
      ['a5', 'b4'],
      ['d2', 'e1'],
      ['a3', 'b4'],
      ['b4', 'c5'],
      ['c5', 'd4'],
      ['d4', 'e3'],
      ['e3', 'd2'],
      ['c1', 'b2'],
    ] as const) {
      expect(areNeighbours(alq, P(a), P(b)), `${a}-${b}`).toBe(true);
    }
    expect(areNeighbours(alq, P('b3'), P('c4'))).toBe(false);
    expect(areNeighbours(GEOMETRIES.orthogonal, P('a1'), P('b2'))).toBe(false);
  });
});

describe('R3 steps and jumps', () => {
  it('a jump goes over the adjacent point to the point beyond, on one straight line', () => {
    const g = GEOMETRIES.alquerque;
    expect(g.jumpOverBetween[P('a1') * 25 + P('c3')]).toBe(P('b2'));
    expect(g.jumpOverBetween[P('a1') * 25 + P('a3')]).toBe(P('a2'));
    // from b3 there is never a diagonal jump
    expect(g.jumpOverBetween[P('b3') * 25 + P('d5')]).toBe(-1);
    expect(g.jumpOverBetween[P('b3') * 25 + P('d1')]).toBe(-1);
    expect(g.jumpOverBetween[P('b3') * 25 + P('d3')]).toBe(P('c3'));
  });
});

describe('Bagh Chal', () => {
  it('R10 tigers on the corners, 20 goats in hand, goats move first', () => {
    const game = gameOf('bagh-chal');
    expect(makePosition(game.position)).toBe('T3T/5/5/5/T3T g 20 0');
    expect(game.position.toMove).toBe('goat');
    // Goats first is Bagh Chal's rule, not an option: asked otherwise, the game is refused.
    expect(createGame('bagh-chal', { goatsFirst: false }).ok).toBe(false);
  });

  it('R11 goats are placed on any empty point while any remain in hand, never moved', () => {
    const game = gameOf('bagh-chal', ['G@c3', 'a1-b1']);
    const moves = moveTexts(game);
    expect(moves).toHaveLength(25 - 5);
    expect(moves.every((m) => m.startsWith('G@'))).toBe(true);
    const result = playMoveText(game, 'c3-c4');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('ERR_ILLEGAL_MOVE');
  });

  it('R11 once the hand is empty a goat steps to an adjacent empty point and never jumps', () => {
    const game = gameOf('bagh-chal', [], {}, 'T3T/5/2G2/5/T3T g 0 0');
    expect(moveTexts(game)).toEqual(['c3-b2', 'c3-b3', 'c3-b4', 'c3-c2', 'c3-c4', 'c3-d2', 'c3-d3', 'c3-d4']);
    const blockedJump = gameOf('bagh-chal', [], {}, 'T3T/5/1GG2/5/T3T g 0 0');
    expect(moveTexts(blockedJump)).not.toContain('b3xd3');
  });

  it('R12 a tiger steps, or jumps one adjacent goat to the empty point beyond and captures it', () => {
    const game = gameOf('bagh-chal', ['G@b2']);
    expect(moveTexts(game)).toContain('a1xc3');
    const after = gameOf('bagh-chal', ['G@b2', 'a1xc3']);
    expect(makePosition(after.position)).toBe('T3T/5/2T2/5/4T g 19 1');
  });

  it('R12 a tiger never jumps a tiger, nor a goat onto an occupied point, and one jump per turn', () => {
    const game = gameOf('bagh-chal', [], {}, 'T3T/5/5/T4/TG3 t 19 0');
    const moves = moveTexts(game);
    expect(moves).not.toContain('a1xa3');
    expect(moves).toContain('a1xc1');
    const chain = gameOf('bagh-chal', [], {}, '5/5/5/GG3/TG1G1 t 10 0');
    expect(moveTexts(chain).filter((m) => m.split('x').length > 2)).toEqual([]);
  });

  it('R12 capturing is never compulsory', () => {
    const game = gameOf('bagh-chal', ['G@b2']);
    expect(moveTexts(game)).toEqual(expect.arrayContaining(['a1-a2', 'a1-b1', 'a1xc3']));
  });

  it('R13 a move that repeats an earlier position is illegal, for either side', () => {
    // All goats placed: tigers shuffle a5-b5 / b5-a5 while a goat shuffles d1-d2 / d2-d1.
    const start = 'T4/5/5/5/3G1 t 0 0';
    const game = gameOf('bagh-chal', ['a5-b5', 'd1-d2', 'b5-a5'], {}, start);
    // d2-d1 would recreate the start position (tiger to move, same board): forbidden.
    expect(moveTexts(game)).not.toContain('d2-d1');
    const result = playMoveText(game, 'd2-d1');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('ERR_REPETITION');
    // The tigers are bound too: b4-b5 would recreate the position after a5-b5.
    const tigerSide = gameOf('bagh-chal', ['a5-b5', 'd1-d2', 'b5-b4', 'd2-d1'], {}, start);
    expect(moveTexts(tigerSide)).toEqual(['b4-a3', 'b4-a4', 'b4-a5', 'b4-b3', 'b4-c3', 'b4-c4', 'b4-c5']);
  });

  it('R13 the rule bites only once all goats are placed (the hand counts in the position)', () => {
    const game = gameOf('bagh-chal', ['G@c3', 'a1-b1', 'G@c4', 'b1-a1']);
    expect(moveTexts(game)).toHaveLength(25 - 6);
  });

  it('R14 the tigers win as soon as 5 goats have been captured', () => {
    const game = gameOf('bagh-chal', [], {}, 'T3T/5/5/1G3/T3T t 10 4');
    expect(game.outcome).toBeNull();
    const won = gameOf('bagh-chal', ['a1xc3'], {}, 'T3T/5/5/1G3/T3T t 10 4');
    expect(won.outcome).toEqual({ winner: 'tiger', reason: 'captures' });
    expect(legalMoves(won)).toEqual([]);
  });

  it('R15 tigers to move with no legal move: goats win (trapped)', () => {
    const game = gameOf('bagh-chal', [], {}, 'TGG2/GG3/G1G2/5/5 t 0 0');
    expect(game.outcome).toEqual({ winner: 'goat', reason: 'trapped' });
  });

  it('R15 goats to move with no legal move: tigers win (blocked)', () => {
    const game = gameOf('bagh-chal', [], {}, 'GT3/TT3/5/5/5 g 0 0');
    expect(game.outcome).toEqual({ winner: 'tiger', reason: 'blocked' });
  });

  it('R15 moves forbidden by R13 do not count as legal', () => {
    // After the shuffle the tiger's only move, a5-a4, would recreate the start: it is trapped.
    const start = '1GG2/TGG2/G1G2/G4/4G g 0 0';
    const before = gameOf('bagh-chal', ['e1-e2', 'a4-a5'], {}, start);
    expect(before.outcome).toBeNull();
    const game = gameOf('bagh-chal', ['e1-e2', 'a4-a5', 'e2-e1'], {}, start);
    expect(moveTexts(game)).toEqual([]);
    expect(game.outcome).toEqual({ winner: 'goat', reason: 'trapped' });
  });

  it('R15 is judged only for the side to move: a tiger move that blocks every tiger does not end the game', () => {
    const game = gameOf('bagh-chal', [], {}, '5/5/G4/TG3/1T3 t 0 0');
    const after = gameOf('bagh-chal', ['b1-a1'], {}, '5/5/G4/TG3/1T3 t 0 0');
    expect(game.outcome).toBeNull();
    expect(after.outcome).toBeNull();
    expect(after.position.toMove).toBe('goat');
  });
});

describe('Bagh Guti and Bagh Bandi', () => {
  it('R20 Bagh Guti plays on the alquerque board, Bagh Bandi on the orthogonal one', () => {
    expect(moveTexts(gameOf('bagh-guti'))).toContain('c3xa1');
    expect(moveTexts(gameOf('bagh-bandi'))).toEqual([
      'c3-b3',
      'c3-c2',
      'c3-c4',
      'c3-d3',
      'c5-b5',
      'c5-c4',
      'c5-d5',
    ]);
  });

  it('R21 two tigers on c3 and c5, four stacks of five goats, tigers first unless goatsFirst', () => {
    expect(makePosition(gameOf('bagh-guti').position)).toBe('2T2/1G(5)1G(5)1/2T2/1G(5)1G(5)1/5 t 0 0');
    expect(makePosition(gameOf('bagh-bandi', [], { goatsFirst: true }).position)).toBe(
      '2T2/1G(5)1G(5)1/2T2/1G(5)1G(5)1/5 g 0 0',
    );
  });

  it('R22 the top goat of a stack steps to an adjacent empty point; goats never restack', () => {
    const game = gameOf('bagh-guti', ['c3-c4', 'b2-c3']);
    expect(makePosition(game.position)).toBe('2T2/1G(5)TG(5)1/2G2/1G(4)1G(5)1/5 t 0 0');
    const goatTurn = gameOf('bagh-guti', ['c3-c4', 'b2-c3', 'c5-b5']);
    expect(moveTexts(goatTurn)).not.toContain('c3-b2');
    expect(playMoveText(goatTurn, 'c3-b2').ok).toBe(false);
    expect(moveTexts(goatTurn)).toContain('c3-c2');
  });

  it('R23 a jump over a stack captures only its top goat', () => {
    const game = gameOf('bagh-guti', ['c3xa1']);
    expect(makePosition(game.position)).toBe('2T2/1G(5)1G(5)1/5/1G(4)1G(5)1/T4 g 0 1');
  });

  it('R23 multiJump: the same tiger may keep jumping, stopping after any jump, never jumping a point twice', () => {
    const game = gameOf('bagh-guti', [], { multiJump: true });
    const moves = moveTexts(game);
    expect(moves).toContain('c3xa1');
    expect(moves).toContain('c3xe1');
    expect(moves.some((m) => m.split('x').length > 2)).toBe(true);
    for (const m of moves.filter((text) => text.includes('x'))) {
      const parsed = parseMove(m);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok || parsed.value.kind !== 'jump') continue;
      const jumped = new Set<number>();
      let at = parsed.value.from;
      for (const land of parsed.value.path) {
        const over = GEOMETRIES.alquerque.jumpOverBetween[at * 25 + land]!;
        expect(jumped.has(over), m).toBe(false);
        jumped.add(over);
        at = land;
      }
    }
    expect(moveTexts(gameOf('bagh-guti')).every((m) => m.split('x').length <= 2)).toBe(true);
  });

  it('R24 the tigers win when fewer than 7 goats remain (alquerque) or fewer than 6 (orthogonal)', () => {
    const seven = 'T4/G(6)4/4G/5/4T t 0 13';
    expect(gameOf('bagh-guti', [], {}, seven).outcome).toBeNull();
    expect(gameOf('bagh-guti', ['a5xa3'], {}, seven).outcome).toEqual({
      winner: 'tiger',
      reason: 'captures',
    });
    expect(gameOf('bagh-guti', [], {}, 'T4/G4/G(5)4/5/4T t 0 14').outcome).toEqual({
      winner: 'tiger',
      reason: 'captures',
    });
    expect(gameOf('bagh-bandi', [], {}, 'T4/G4/G(5)4/5/4T t 0 14').outcome).toBeNull();
    expect(gameOf('bagh-bandi', [], {}, 'T4/G4/G(4)4/5/4T t 0 15').outcome).toEqual({
      winner: 'tiger',
      reason: 'captures',
    });
  });

  it('R24 the example: tigers a1 b1 with goats a2 a3 b2 b3 c1 c3 d1 are immobilised', () => {
    const game = gameOf('bagh-guti', [], {}, '5/5/GGG2/GG3/TTGG1 t 0 13');
    expect(game.outcome).toEqual({ winner: 'goat', reason: 'trapped' });
  });

  it('R25 goats to move with none lose (blocked)', () => {
    const game = gameOf('bagh-bandi', [], {}, 'GGGGG/GGGGG/TTTTT/5/5 g 0 0');
    expect(game.outcome).toEqual({ winner: 'tiger', reason: 'blocked' });
  });

  it('R26 the no-repeat rule is off by default and on with noRepeat', () => {
    // The 6th move recreates the position after the 2nd.
    const line = ['c5-b5', 'b2-a1', 'b5-c5', 'a1-a2', 'c5-b5', 'a2-a1'];
    expect(gameOf('bagh-guti', line).outcome).toBeNull();
    expect(() => gameOf('bagh-guti', line, { noRepeat: true })).toThrow(/repeat/);
    expect(moveTexts(gameOf('bagh-guti', line.slice(0, 5), { noRepeat: true }))).not.toContain('a2-a1');
    expect(moveTexts(gameOf('bagh-guti', line.slice(0, 5)))).toContain('a2-a1');
  });
});

describe('R30 the rules never declare a draw', () => {
  it('outcomes are only wins', () => {
    expect(gameOf('bagh-chal').outcome).toBeNull();
  });
});

describe('play never throws on an illegal move', () => {
  it('returns stable error codes', () => {
    const game = gameOf('bagh-chal');
    const cases: Array<[string, string]> = [
      ['a1-a2', 'ERR_ILLEGAL_MOVE'],
      ['a1xc3', 'ERR_ILLEGAL_MOVE'],
      ['G@a1', 'ERR_ILLEGAL_MOVE'],
      ['zz', 'ERR_MOVE_SYNTAX'],
    ];
    for (const [text, code] of cases) {
      const result = playMoveText(game, text);
      expect(result.ok, text).toBe(false);
      if (!result.ok) expect(result.error.code, text).toBe(code);
    }
    const over = gameOf('bagh-chal', [], {}, 'TGG2/GG3/G1G2/5/5 t 0 0');
    const result = play(over, { kind: 'step', from: P('a5'), to: P('a4') });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('ERR_GAME_OVER');
  });
});

describe('options a variant has (R12, R23, R26)', () => {
  it('refuses multiJump for Bagh Chal, naming it, and keeps it for Bagh Guti and Bagh Bandi', () => {
    const refused = createGame('bagh-chal', { multiJump: true });
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.error).toMatchObject({
        code: 'ERR_OPTION',
        message: expect.stringContaining('multiJump'),
      });
    expect(createGame('bagh-chal', { multiJump: false, noRepeat: true }).ok).toBe(true);
    for (const variant of ['bagh-guti', 'bagh-bandi'] as const) {
      const created = createGame(variant, { multiJump: true, goatsFirst: true, noRepeat: true });
      expect(created.ok && created.value.options.multiJump).toBe(true);
    }
  });

  it('lets players choose only the options a variant has and does not fix (R10, R13)', () => {
    expect(choosableOptions('bagh-chal')).toEqual([]);
    expect(choosableOptions('bagh-guti')).toEqual(['goatsFirst', 'multiJump', 'noRepeat']);
    expect(choosableOptions('bagh-bandi')).toEqual(['goatsFirst', 'multiJump', 'noRepeat']);
    const all = { goatsFirst: true, multiJump: false, noRepeat: true };
    expect(chosenOptions('bagh-chal', all)).toEqual({});
    expect(chosenOptions('bagh-bandi', all)).toEqual(all);
    // A fixed rule asked otherwise is refused, not overridden; asked as fixed, it is accepted.
    expect(unsupportedOptions('bagh-chal', { goatsFirst: false, noRepeat: false, multiJump: false })).toEqual(
      ['goatsFirst', 'noRepeat'],
    );
    expect(unsupportedOptions('bagh-chal', { goatsFirst: true, noRepeat: true })).toEqual([]);
    const refused = createGame('bagh-chal', { noRepeat: false });
    expect(!refused.ok && refused.error).toMatchObject({
      code: 'ERR_OPTION',
      message: 'bagh-chal always plays with noRepeat on',
    });
    // What a form offers is always accepted.
    for (const variant of VARIANTS) {
      const every = { goatsFirst: true, multiJump: true, noRepeat: true };
      expect(unsupportedOptions(variant, chosenOptions(variant, every))).toEqual([]);
    }
  });
});
