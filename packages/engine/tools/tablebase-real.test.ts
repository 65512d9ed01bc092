/**
 * The real table, when one is built (TABLEBASE_DIR, else ./data/tablebase at the repository root;
 * skipped otherwise — CI never builds it): its checksums, its size (705,743,500 positions) and
 * samples of every tier consistent with their moves by the rules' generator (`pnpm tablebase:check`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tablebase } from '@bagh/engine/tablebase';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = process.env.TABLEBASE_DIR || join(root, 'data', 'tablebase');
const built = existsSync(join(dir, 'SHA256SUMS')) && existsSync(join(dir, 'manifest.json'));

describe.skipIf(!built)('the real tablebase, built', { timeout: 600_000 }, () => {
  it('matches its checksums', async () => {
    const table = Tablebase.open(dir);
    try {
      expect(table.winCaptures).toBe(5);
      await table.verify();
    } finally {
      table.close();
    }
  });

  it('holds 705,743,500 positions, and sampled ones are what their moves make them', () => {
    const check = spawnSync(
      process.execPath,
      [join(root, 'packages/engine/dist-tools/tablebase-check.js'), '--dir', dir, '--samples', '2000'],
      { encoding: 'utf8' },
    );
    expect(check.stdout).toContain('positions in tiers 0, 1, 2, 3, 4: 705,743,500');
    expect(check.stdout.match(/samples agree with their moves/g)).toHaveLength(5);
    expect(check.status).toBe(0);
  });
});
