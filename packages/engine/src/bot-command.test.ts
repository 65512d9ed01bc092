import { createGame, legalMoves, makeMove, playMoveTexts } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { MISSED_WIN } from '../tools/issue-games.js';
import { runBotCommand } from './bot-command.js';

const move = (args: string[]): string => {
  const result = runBotCommand(args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout.split('\n')[0]!;
};

describe('bagh bot', () => {
  it('prints a legal move of the position after the moves on its first line, at every level', () => {
    const created = createGame('bagh-chal');
    if (!created.ok) throw new Error(created.error.message);
    const game = playMoveTexts(created.value, ['G@c3', 'a1-b1']);
    if (!game.ok) throw new Error(game.error.message);
    const legal = legalMoves(game.value).map(makeMove);
    for (const level of ['beginner', 'casual', 'strong', 'max'])
      expect(legal).toContain(move([level, 'bagh-chal', '--nodes', '2000', 'G@c3', 'a1-b1']));
  });

  it('on a node budget answers the same every run, options and start position included', () => {
    const args = ['strong', 'bagh-guti', '--goats-first', '--no-repeat', '--nodes=20000', 'b2-a1'];
    const first = runBotCommand(args);
    expect(first.code).toBe(0);
    expect(runBotCommand(args)).toEqual(first);
    const casual = ['casual', 'bagh-chal', '--position', 'T3T/5/2G2/5/T3T t 19 0', '--nodes', '5000'];
    const casualFirst = runBotCommand(casual);
    expect(casualFirst.code).toBe(0);
    expect(runBotCommand(casual)).toEqual(casualFirst);
  });

  it('counts the whole history for R13: the move back is not played', () => {
    // d2-d1 would repeat the position after d1-d2's predecessor.
    const args = ['max', 'bagh-chal', '--position', 'T4/5/5/5/3G1 t 0 0', '--nodes', '5000'];
    expect(move([...args, 'a5-b5', 'd1-d2', 'b5-a5'])).not.toBe('d2-d1');
  });

  it('with the real history before ply 141 of issue 21, finds the goats’ forced trap', () => {
    // The only two moves that trap the tigers within 11 plies (the game's max played b1-a1).
    expect(['d2-e2', 'e3-d4']).toContain(
      move(['max', 'bagh-chal', '--nodes', '500000', ...MISSED_WIN.slice(0, 140)]),
    );
  }, 20_000);

  it.each([
    [['grandmaster', 'bagh-chal'], /unknown level 'grandmaster'/],
    [['max', 'chess'], /unknown variant 'chess'/],
    [['max', 'bagh-chal', '--multi-jump'], /bagh-chal has no option multiJump/],
    [['max', 'bagh-chal', '--position', 'T3T/5/5/5/T3 g 20 0'], /invalid position/],
    [['max', 'bagh-chal', 'G@c3', 'G@c4'], /move 2 \('G@c4'\) is illegal/],
    [['max', 'bagh-chal', '--nodes', '0'], /--nodes needs a whole number/],
    [['max', 'bagh-chal', '--nodes'], /--nodes needs a whole number/],
    [['max', 'bagh-chal', '--depth', '3'], /unknown option '--depth'/],
  ])('refuses %j with exit code 1 and a message', (args, message) => {
    const result = runBotCommand(args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/usage: bagh bot <level> <variant>/);
  });

  it('exits 2 when the game is over', () => {
    const result = runBotCommand(['casual', 'bagh-chal', '--position', 'TGG2/GG3/G1G2/5/5 t 0 0']);
    expect(result).toEqual({ stdout: '', stderr: 'bagh: the game is over: goat trapped\n', code: 2 });
  });
});
