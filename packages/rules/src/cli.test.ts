import { describe, expect, it } from 'vitest';
import { runRulesCommand as run } from './rules-command.js';

const ok = (args: string[]): string[] => {
  const result = run(args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout.split('\n').slice(0, -1);
};

describe('bagh CLI', () => {
  it('perft prints the leaf count alone on its last line', () => {
    expect(ok(['perft', 'bagh-chal', '3'])).toEqual(['5052']);
    expect(ok(['perft', 'bagh-guti', '2', '--goats-first'])).toEqual(['326']);
  });

  it('perft plays the given moves first; they become the history', () => {
    expect(ok(['perft', 'bagh-chal', '1', 'G@c3'])).toEqual(['12']);
  });

  it('moves lists canonical move text, sorted, on one line', () => {
    expect(ok(['moves', 'bagh-guti'])).toEqual([
      'c3-b3 c3-c2 c3-c4 c3-d3 c3xa1 c3xa5 c3xe1 c3xe5 c5-b5 c5-c4 c5-d5 c5xa3 c5xe3',
    ]);
    expect(ok(['moves', 'bagh-chal', 'c3', 'A1B1'])[0]).toMatch(/^G@a1 G@a2 /);
  });

  it('moves prints an empty line when there are none', () => {
    expect(ok(['moves', 'bagh-chal', '--position', 'TGG2/GG3/G1G2/5/5 t 0 0'])).toEqual(['']);
  });

  it('status prints ongoing or the result, then the position', () => {
    expect(ok(['status', 'bagh-chal'])).toEqual(['ongoing', 'T3T/5/5/5/T3T g 20 0']);
    expect(ok(['status', 'bagh-chal', '--position', 'TGG2/GG3/G1G2/5/5 t 0 0'])).toEqual([
      'goat trapped',
      'TGG2/GG3/G1G2/5/5 t 0 0',
    ]);
    expect(ok(['status', 'bagh-chal', '--position', 'T3T/5/5/5/T3T g 0 5'])).toEqual([
      'tiger captures',
      'T3T/5/5/5/T3T g 0 5',
    ]);
  });

  it('accepts --multi-jump and --no-repeat', () => {
    expect(ok(['perft', 'bagh-guti', '1', '--multi-jump', '--no-repeat'])).toEqual(['19']);
  });

  it('an illegal move: exit 1, its index and why on stderr, nothing on stdout', () => {
    const result = run(['moves', 'bagh-chal', 'G@c3', 'a1-a3']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/move 2 \('a1-a3'\)/);
  });

  it('an unparsable move, position, variant or option: exit 1', () => {
    for (const args of [
      ['status', 'bagh-chal', 'zz9'],
      ['status', 'bagh-chal', '--position', 'T3T/5/5/5 g 20 0'],
      ['status', 'bagh-chal', '--position', 'G(3)4/5/5/5/T3T g 0 0'],
      ['status', 'chess'],
      ['perft', 'bagh-chal', 'x'],
      ['moves', 'bagh-chal', '--fast'],
    ]) {
      const result = run(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toBe('');
    }
  });

  it('an option the variant does not have: exit 1, named on stderr (R12: Bagh Chal jumps once)', () => {
    const result = run(['perft', 'bagh-chal', '2', '--multi-jump']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^bagh: bagh-chal has no option multiJump/);
  });
});
