/**
 * End to end on reduced rule sets (the full table is too big for a test): `pnpm tablebase
 * --captures N` (the tigers win at the N-th capture) and `pnpm -s bagh solve`, the built tools as
 * processes (`pnpm build` first), the way the root package.json's scripts run them.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeVerdict, positionAt, solveTier, Tablebase, TierSpace } from '@bagh/engine/tablebase';
import { createGame, makePosition, parseMove, play } from '@bagh/rules';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const scripts: Record<string, string> = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).scripts;
const run = (script: string, args: string[], env: Record<string, string> = {}) => {
  const entry = `${root}${scripts[script]!.replace(/^node /, '')}`;
  const { status, stdout, stderr } = spawnSync(process.execPath, [entry, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TABLEBASE_DIR: '', DATA_DIR: '', ...env },
  });
  return { code: status, stdout, stderr };
};

const scratch = mkdtempSync(join(tmpdir(), 'bagh-tablebase-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * Tigers in the corner a1 b1 a2 b2, goats everywhere else but e5. Tigers to move: no step, no jump
 * (R15: goats have won). Goats to move: d5-e5 or e4-e5 keeps them shut in; d4-e5 opens b2xd4.
 */
const CORNER = 'GGGG1/GGGGG/GGGGG/TTGGG/TTGGG';

// Child processes on a shared machine: generous timeouts (no test asserts a duration).
describe('pnpm tablebase and bagh solve on the reduced rules (tigers win at the first capture)', {
  timeout: 600_000,
}, () => {
  const dir = join(scratch, 'one');
  const solve = (position: string, env: Record<string, string> = { TABLEBASE_DIR: dir }) =>
    run('bagh', ['solve', position], env);

  it('builds one tier with a checksum file beside it and prints the counts', () => {
    expect(scripts.tablebase).toBe('node packages/engine/dist-tools/tablebase.js');
    const { code, stdout } = run('tablebase', ['--dir', dir, '--captures', '1']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^0 +531,300 +66,962 +tigers/m);
    expect(stdout).toMatch(/longest forced tiger win: tiger wins in \d+ from /);
    expect(readFileSync(join(dir, 'SHA256SUMS'), 'utf8')).toBe(
      `${sha256(join(dir, 'tier-0.bin'))}  tier-0.bin\n`,
    );
  });

  it('solves positions a person can check', () => {
    expect(solve(`${CORNER} t 0 0`)).toEqual({ code: 0, stdout: 'goat wins in 0\n', stderr: '' });
    const goats = solve(`${CORNER} g 0 0`);
    expect(goats.code).toBe(0);
    const lines = goats.stdout.trim().split('\n');
    expect(lines[0]).toBe('goat wins in 1');
    expect(lines.slice(1, 3).sort()).toEqual(['d5-e5 goat wins in 1', 'e4-e5 goat wins in 1']);
    expect(lines[3]).toBe('d4-e5 tiger wins in 2');
    expect(lines).toHaveLength(4);
  });

  it('each move is valued one ply beyond the position it leads to, and the first is the position’s value', () => {
    const table = Tablebase.fromArrays([solveTier(0, null)], 1);
    const space = new TierSpace(0);
    for (const index of [17, 4242, 99_999, 123_457, 250_000, 400_001, 531_299]) {
      const position = positionAt(0, index, space);
      const text = makePosition(position);
      const { code, stdout } = solve(text);
      expect(code).toBe(0);
      const [first, ...moves] = stdout.trim().split('\n');
      expect(first).toBe(describeVerdict(table.verdict(position)));
      if (moves.length > 0) expect(moves[0]!.replace(/^\S+ /, '')).toBe(first);
      const game = createGame('bagh-chal', {}, position);
      if (!game.ok) throw new Error(game.error.message);
      for (const line of moves) {
        const [move, ...value] = line.split(' ');
        const parsed = parseMove(move!);
        if (!parsed.ok) throw new Error(parsed.error.message);
        const next = play(game.value, parsed.value);
        if (!next.ok) throw new Error(next.error.message);
        const after = next.value.position;
        const expected =
          after.goatsCaptured >= 1 || next.value.outcome
            ? `${next.value.outcome?.winner ?? 'tiger'} wins in 1`
            : (() => {
                const v = table.verdict(after);
                return v.plies === undefined ? 'draw' : `${v.result} wins in ${v.plies + 1}`;
              })();
        expect(value.join(' ')).toBe(expected);
      }
    }
  });

  it('exit 2 with no table, 1 for a bad position or one outside the table', () => {
    const none = solve(`${CORNER} t 0 0`, { TABLEBASE_DIR: join(scratch, 'none') });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no tablebase in .*none: build it with pnpm tablebase/);
    // A bad position is exit 1, table or not.
    expect(solve('not a position', { TABLEBASE_DIR: join(scratch, 'none') }).code).toBe(1);
    expect(solve('T3T/5/5/5/T3T g 20 0', { TABLEBASE_DIR: join(scratch, 'none') }).code).toBe(1);
    expect(solve('not a position').code).toBe(1);
    const placement = solve('T3T/5/5/5/T3T g 20 0');
    expect(placement).toMatchObject({ code: 1, stdout: '' });
    expect(placement.stderr).toMatch(/goats are still in hand/);
    // One goat captured: past this reduced table's end.
    expect(solve('GGGG1/GGGG1/GGGGG/TTGGG/TTGGG t 0 1').code).toBe(1);
  });
});

describe('pnpm tablebase resumes an interrupted build', { timeout: 600_000 }, () => {
  it('keeps the tiers already written and rebuilds the rest, to the same bytes', () => {
    const dir = join(scratch, 'two');
    expect(run('tablebase', ['--dir', dir, '--captures', '2', '--threads', '2']).code).toBe(0);
    const sums = readFileSync(join(dir, 'SHA256SUMS'), 'utf8');
    // Two worker threads on shared arrays write what one thread does.
    const tier1 = solveTier(1, null);
    const hex = (values: Uint16Array) =>
      createHash('sha256')
        .update(new Uint8Array(values.buffer, values.byteOffset, values.byteLength))
        .digest('hex');
    expect(sums).toBe(`${hex(solveTier(0, tier1))}  tier-0.bin\n${hex(tier1)}  tier-1.bin\n`);
    // Interrupted after tier 1: tier 0 and the final files never written.
    for (const name of ['tier-0.bin', 'tier-0.json', 'SHA256SUMS', 'manifest.json'])
      unlinkSync(join(dir, name));
    const again = run('tablebase', ['--dir', dir, '--captures', '2', '--threads', '1']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/tier 1: already built/);
    expect(again.stderr).toMatch(/tier 0: 531,300 positions solved/);
    expect(existsSync(join(dir, 'tier-0.bin'))).toBe(true);
    expect(readFileSync(join(dir, 'SHA256SUMS'), 'utf8')).toBe(sums);
  });
});
