/**
 * End to end: the built `bagh` CLI (`pnpm build`) as a child process, at the path the root
 * package.json's `bagh` script runs, so `pnpm -s bagh …` is what is tested here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGame, legalMoves, makeMove } from '@bagh/rules';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const script: string = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).scripts.bagh;
const entry = `${root}${script.replace(/^node /, '')}`;

const bagh = (...args: string[]) => {
  const { status, stdout, stderr } = spawnSync(process.execPath, [entry, ...args], { encoding: 'utf8' });
  return { code: status, stdout, stderr };
};

describe('the bagh CLI, built, as a process', () => {
  it('is the entry point the root bagh script runs, built by pnpm build', () => {
    expect(script).toBe('node packages/engine/dist-tools/bagh.js');
    expect(existsSync(entry), `${entry} is missing: run pnpm build`).toBe(true);
  });

  it('bot prints a legal move on its first line, exit 0', () => {
    const { code, stdout, stderr } = bagh('bot', 'beginner', 'bagh-chal', '--nodes', '2000');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const start = createGame('bagh-chal');
    if (!start.ok) throw new Error(start.error.message);
    expect(legalMoves(start.value).map(makeMove)).toContain(stdout.split('\n')[0]);
  });

  it('bot on a finished game: exit 2, the result on stderr, nothing on stdout', () => {
    const { code, stdout, stderr } = bagh('bot', 'max', 'bagh-chal', '--position', 'TGG2/GG3/G1G2/5/5 t 0 0');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('bagh: the game is over: goat trapped\n');
  });

  it('bot refuses a bad level, variant or move with exit 1', () => {
    for (const args of [
      ['bot', 'grandmaster', 'bagh-chal'],
      ['bot', 'max', 'chess'],
      ['bot', 'max', 'bagh-chal', 'G@c3', 'G@c4'],
    ]) {
      const { code, stdout, stderr } = bagh(...args);
      expect(code, args.join(' ')).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^bagh: .*\nusage: bagh bot <level>/);
    }
  });

  it('perft, moves and status are the rules’ commands', () => {
    expect(bagh('perft', 'bagh-chal', '3')).toEqual({ code: 0, stdout: '5052\n', stderr: '' });
    expect(bagh('perft', 'bagh-bandi', '3').stdout).toBe('644\n');
    expect(bagh('status', 'bagh-chal', 'G@c3').stdout).toBe('ongoing\nT3T/5/2G2/5/T3T t 19 0\n');
    const failed = bagh('status', 'bagh-chal', 'a1-b2');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/^bagh: move 1 \('a1-b2'\) is illegal/);
  });

  it('an unknown or missing command: exit 1, the usage names every command', () => {
    for (const args of [['play'], []]) {
      const { code, stdout, stderr } = bagh(...args);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^bagh: unknown command '(play)?'\n/);
      for (const command of ['<perft ', '|moves ', '|status ', 'bagh bot '])
        expect(stderr).toContain(command);
    }
  });
});
