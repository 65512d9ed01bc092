import { describe, expect, it } from 'vitest';
import { playMoveText } from '../game.js';
import { gameOf } from '../test-helpers.js';
import { makeMove, parseMove } from './move.js';
import { makeObx, parseObx } from './obx.js';
import { makePosition, parsePosition } from './position.js';
import { makeRecord, parseRecord } from './record.js';

const parsed = (text: string) => {
  const result = parseMove(text);
  if (!result.ok) throw new Error(result.error.message);
  return makeMove(result.value);
};

describe('R40 move text', () => {
  it('makes the canonical forms', () => {
    for (const text of ['G@c3', 'a1-b2', 'a1xc3', 'a1xc3xe5', 'c5xa3xa1']) expect(parsed(text)).toBe(text);
  });
  it('parses upper case, bare placements and moves without a separator', () => {
    expect(parsed('c3')).toBe('G@c3');
    expect(parsed('g@C3')).toBe('G@c3');
    expect(parsed('A1B2')).toBe('a1-b2');
    expect(parsed('a1b2')).toBe('a1-b2');
    expect(parsed('a1c3')).toBe('a1xc3');
    expect(parsed('A1XC3')).toBe('a1xc3');
    expect(parsed(' a1-a2 ')).toBe('a1-a2');
  });
  it('rejects what is not a move, with a code', () => {
    for (const text of ['', 'z9', 'a1-', 'a1-c3', 'a1xb2', 'a1xa4', 'G@f3', 'a1-b2-c3', 'hello']) {
      const result = parseMove(text);
      expect(result.ok, text).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('ERR_MOVE_SYNTAX');
    }
  });
});

describe('R41 position string', () => {
  const examples = [
    'T3T/5/5/5/T3T g 20 0',
    '2T2/1G(5)1G(5)1/2T2/1G(5)1G(5)1/5 t 0 0',
    'GGGGG/GTTTG/G3G/G3G/GGGGT t 0 1',
    '5/5/5/5/5 g 0 20',
  ];
  it.each(examples)('round-trips %s', (text) => {
    const result = parsePosition(text);
    expect(result.ok).toBe(true);
    if (result.ok) expect(makePosition(result.value)).toBe(text);
  });
  it('reads the start positions of R41', () => {
    expect(makePosition(gameOf('bagh-chal').position)).toBe('T3T/5/5/5/T3T g 20 0');
    expect(makePosition(gameOf('bagh-guti').position)).toBe('2T2/1G(5)1G(5)1/2T2/1G(5)1G(5)1/5 t 0 0');
  });
  it('rejects malformed strings', () => {
    for (const text of [
      '',
      'T3T/5/5/5 g 20 0',
      'T3T/5/5/5/T3T x 20 0',
      'T3T/5/5/5/T4T g 20 0',
      'T3T/5/5/5/T3T g twenty 0',
      'G(1)4/5/5/5/5 g 0 0',
      'Q4/5/5/5/5 g 0 0',
      'T3T/5/5/5/T3T g 20',
    ]) {
      const result = parsePosition(text);
      expect(result.ok, text).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('ERR_POSITION_SYNTAX');
    }
  });
});

describe('R42 game record', () => {
  it('exports and imports a finished game exactly', () => {
    const game = gameOf('bagh-chal', [], {}, 'T3T/5/5/1G3/T3T t 10 4');
    const won = playMoveText(game, 'a1xc3');
    expect(won.ok).toBe(true);
    if (!won.ok) return;
    const record = makeRecord(won.value);
    expect(record).toContain('[Variant "bagh-chal"]');
    expect(record).toContain('[Result "tiger"]');
    expect(record).toContain('[Termination "captures"]');
    expect(record).toContain('[Position "T3T/5/5/1G3/T3T t 10 4"]');
    const imported = parseRecord(record);
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(imported.value.game.moves).toEqual(won.value.moves);
    expect(makePosition(imported.value.game.position)).toBe(makePosition(won.value.position));
    expect(imported.value.result).toEqual({ winner: 'tiger', reason: 'captures' });
    expect(makeRecord(imported.value.game)).toBe(record);
  });

  it('numbers moves by turn, lists options and ends with the result', () => {
    const game = gameOf('bagh-guti', ['c3xa1', 'b2-c3', 'c5-c4'], { multiJump: true, goatsFirst: false });
    const record = makeRecord(game);
    expect(record).toBe(
      '[Variant "bagh-guti"]\n[Options "multiJump"]\n[Result "*"]\n[Termination ""]\n\n1. c3xa1 b2-c3 2. c5-c4 *\n',
    );
    const imported = parseRecord(record);
    expect(imported.ok && imported.value.game.options.multiJump).toBe(true);
  });

  it('carries results decided outside the rules (resignation, agreement)', () => {
    const game = gameOf('bagh-chal', ['G@c3']);
    const record = makeRecord(game, { result: { winner: null, reason: 'agreement' } });
    expect(record).toMatch(/\[Result "draw"\]/);
    expect(record.trim().endsWith('draw')).toBe(true);
    const imported = parseRecord(record);
    expect(imported.ok && imported.value.result).toEqual({ winner: null, reason: 'agreement' });
  });

  it('rejects an illegal move, naming it, and a result the moves contradict', () => {
    const bad = parseRecord('[Variant "bagh-chal"]\n\n1. G@c3 a1-a3 *\n');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toMatch(/move 2 \(a1-a3\)/);
    const lie = parseRecord('[Variant "bagh-chal"]\n[Position "T3T/5/5/1G3/T3T t 10 4"]\n\n1. a1xc3 goat\n');
    expect(lie.ok).toBe(false);
    if (!lie.ok) expect(lie.error.code).toBe('ERR_RECORD_RESULT');
    expect(parseRecord('no headers').ok).toBe(false);
    const twice = parseRecord('[Variant "bagh-guti"]\n[Variant "bagh-chal"]\n\n1. G@c3 *\n');
    expect(!twice.ok && twice.error.message).toBe('the Variant header is given twice');
    const unquoted = parseRecord('[Variant bagh-chal]\n\n1. G@c3 *\n');
    expect(!unquoted.ok && unquoted.error.message).toMatch(/^'\[Variant': headers come first/);
    const late = parseRecord('[Variant "bagh-chal"]\n\n1. G@c3 a1-b2\n[Result "*"]\n*\n');
    expect(!late.ok && late.error.message).toMatch(/^'\[Result': headers come first, as \[Key "value"\]$/);
    const capped = '[Variant "bagh-chal"]\n\n1. G@c3 a1-b2 2. G@a1 *\n';
    expect(parseRecord(capped, { maxMoves: 3 }).ok).toBe(true);
    const over = parseRecord(capped, { maxMoves: 2 });
    expect(!over.ok && over.error.message).toBe('3 moves; at most 2 are taken');
    const option = parseRecord('[Variant "bagh-chal"]\n[Options "multiJump"]\n\n*\n');
    expect(option.ok).toBe(false);
    if (!option.ok)
      expect(option.error.message).toMatch(/^Options header: bagh-chal has no option multiJump/);
  });
});

describe('R42 a declared result the moves do not reach (R14, R15, R30)', () => {
  const record = (result: string, termination: string, tail = result) =>
    parseRecord(
      `[Variant "bagh-chal"]\n[Result "${result}"]\n[Termination "${termination}"]\n\n1. G@c3 a1-b2 ${tail}\n`,
    );
  it.each([
    ['goat', 'captures'], // R14: only the tigers win by captures, at the fifth
    ['tiger', 'blocked'], // R15: only the side to move with no move loses
    ['draw', 'blocked'],
    ['draw', 'resign'], // a resignation has a winner
    ['tiger', 'agreement'], // an agreement is a draw
    ['tiger', 'aborted'], // an aborted game has no winner…
    ['draw', 'aborted'], // …and both sides have moved here
    ['goat', 'normal'], // not a reason a room gives
  ])('refuses %s by %s', (result, termination) => {
    const parsed = record(result, termination);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe('ERR_RECORD_RESULT');
  });
  it.each([
    ['goat', 'resign', { winner: 'goat', reason: 'resign' }],
    ['tiger', 'timeout', { winner: 'tiger', reason: 'timeout' }],
    ['draw', 'agreement', { winner: null, reason: 'agreement' }],
    ['draw', 'abandoned', { winner: null, reason: 'abandoned' }],
    ['goat', '', { winner: 'goat', reason: '' }],
  ])('accepts %s by %s', (result, termination, expected) => {
    const parsed = record(result, termination);
    expect(parsed.ok && parsed.value.result).toEqual(expected);
  });
  it('refuses a Termination on an unfinished game (*): the reason would be lost', () => {
    for (const termination of ['resign', 'timeout', 'anything']) {
      const parsed = record('*', termination);
      expect(!parsed.ok && parsed.error.code).toBe('ERR_RECORD_RESULT');
    }
    const open = record('*', '');
    expect(open.ok && open.value.result).toBeNull();
  });
  it("refuses a Result header the moves' last token contradicts; either alone is taken", () => {
    const both = record('tiger', 'resign', 'goat');
    expect(!both.ok && both.error.code).toBe('ERR_RECORD_RESULT');
    const aborted = parseRecord('[Variant "bagh-chal"]\n[Termination "aborted"]\n\n1. G@c3 draw\n');
    expect(aborted.ok && aborted.value.result).toEqual({ winner: null, reason: 'aborted' });
  });
});

describe('R43 OBX', () => {
  it('writes rows top to bottom with X for empty points, OBX row r = our row 6 − r', () => {
    expect(makeObx(gameOf('bagh-chal').position)).toBe('TXXXT/XXXXX/XXXXX/XXXXX/TXXXT g @20 c0 -');
    const game = gameOf('bagh-chal', ['G@b4']);
    expect(makeObx(game.position, game.moves[0])).toBe('TXXXT/XGXXX/XXXXX/XXXXX/TXXXT t @19 c0 mB2');
    const jumped = gameOf('bagh-chal', ['G@b2', 'a1xc3']);
    expect(makeObx(jumped.position, jumped.moves[1])).toBe(
      'TXXXT/XXXXX/XXTXX/XXXXX/XXXXT g @19 c1 mA5C3(B4)',
    );
  });
  it('reads OBX, including the optional fields, and round-trips', () => {
    const game = gameOf('bagh-chal', ['G@b4', 'a1-b1', 'G@e3']);
    const obx = makeObx(game.position);
    const read = parseObx(obx);
    expect(read.ok && makePosition(read.value)).toBe(makePosition(game.position));
    const withMoveNumber = parseObx('TXXXT/XXXXX/XXGXX/XXXXX/TXXXT t @19 c0 mC3 #g1');
    expect(withMoveNumber.ok && makePosition(withMoveNumber.value)).toBe('T3T/5/2G2/5/T3T t 19 0');
    for (const bad of [
      'TXXXT/XXXXX g @20 c0',
      'TXXXT/XXXXX/XXXXX/XXXXX/TXXXT q',
      'TXXQT/XXXXX/XXXXX/XXXXX/TXXXT g',
    ]) {
      expect(parseObx(bad).ok, bad).toBe(false);
    }
  });
});
