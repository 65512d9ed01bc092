import { describe, expect, it } from 'vitest';
import { makePosition, parseGameArgs } from './index.js';

describe('a game named on a command line', () => {
  it('sets up the variant, options and position, and plays the moves (one argument may hold several)', () => {
    const parsed = parseGameArgs([
      'bagh-guti',
      '--goats-first',
      '--position=2T2/1G(5)1G(5)1/2T2/1G(5)1G(5)1/5 g 0 0',
      'b2-a1 c3-c2',
    ]);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.value.options).toEqual({ goatsFirst: true });
    expect(parsed.value.moves).toEqual(['b2-a1', 'c3-c2']);
    expect(parsed.value.game.moves).toHaveLength(2);
    expect(makePosition(parsed.value.game.position)).toBe('2T2/1G(5)1G(5)1/5/1G(4)TG(5)1/G4 g 0 0');
  });

  it.each([
    [['ludo'], "unknown variant 'ludo'"],
    [['bagh-chal', '--position'], '--position needs a position string'],
    [['bagh-chal', '--fast'], "unknown option '--fast'"],
    [['bagh-chal', '--multi-jump'], 'bagh-chal has no option multiJump'],
    [['bagh-chal', 'G@c3', 'c3-c4'], "move 2 ('c3-c4') is illegal: "],
  ])('names what is wrong with %j', (args, message) => {
    const parsed = parseGameArgs(args);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(message);
  });
});
