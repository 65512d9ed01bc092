// @vitest-environment node
/**
 * End to end in a real Chromium (issue 20): an imported Bagh Chal game that reaches the sliding
 * phase, replayed with the analysis on, shows the tablebase's verdict of each sliding-phase
 * position, as the table itself gives it. The server gets a reduced table (the tigers win at the
 * first capture, built by the real tool in seconds): the full one is 1.4 GB.
 *
 * Needs `pnpm build` first and Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tablebase } from '@bagh/engine/tablebase';
import { TablebaseReply } from '@bagh/protocol';
import { gameFromMoves, makePosition } from '@bagh/rules';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, importGame, pageOpener, ROOT, startHarness } from './harness.js';

/** 20 goats placed with no capture, then two slides: plies 39–41 are in the reduced table. */
const MOVES = [
  ...['G@b1', 'a1-b2', 'G@c4', 'e1-d1', 'G@c3', 'd1-d2', 'G@e2', 'b2-c1', 'G@c2', 'c1-d1', 'G@b3', 'd2-c1'],
  ...['G@b4', 'c1-d2', 'G@a1', 'd1-c1', 'G@d4', 'd2-d1', 'G@e3', 'c1-d2', 'G@b5', 'd1-c1', 'G@a3', 'd2-d1'],
  ...['G@e4', 'c1-d2', 'G@c5', 'd1-c1', 'G@d1', 'd2-d3', 'G@e1', 'c1-d2', 'G@d5', 'd2-c1', 'G@d2', 'c1-b2'],
  ...['G@c1', 'a5-a4', 'G@a2', 'a4-a5', 'a3-a4'],
];

const tableDir = mkdtempSync(join(tmpdir(), 'bagh-e2e-table-'));
let harness: Harness | undefined;

beforeAll(async () => {
  const tool = spawnSync(
    process.execPath,
    [join(ROOT, 'packages/engine/dist-tools/tablebase.js'), '--dir', tableDir, '--captures', '1'],
    { encoding: 'utf8' },
  );
  expect(tool.status, tool.stderr).toBe(0);
  harness = await startHarness({ TABLEBASE_DIR: tableDir });
}, 600_000);

afterAll(async () => {
  await harness?.close();
  rmSync(tableDir, { recursive: true, force: true });
});

/** The position after `ply` moves, as the server is asked about it. */
function positionAt(ply: number): string {
  const game = gameFromMoves({ variant: 'bagh-chal', moves: MOVES.slice(0, ply) });
  if (!game.ok) throw new Error(game.error.message);
  return makePosition(game.value.position);
}

/** What the panel should say of the position after `ply` moves: the table's value, in English. */
function expected(table: Tablebase, ply: number): { words: string; keep: string[] } {
  const answer = table.analysePosition(positionAt(ply));
  if (!answer.ok) throw new Error(answer.error.message);
  const { result, plies, moves } = answer.value;
  if (result === 'draw') throw new Error('the reduced table has no draw here');
  const winner = Math.ceil((plies ?? 0) / 2);
  const unit = winner === 1 ? 'move' : 'moves';
  const words =
    result === 'tiger' ? `Tigers win in ${winner} ${unit}` : `Goats trap the tigers in ${winner} ${unit}`;
  const keep = moves
    .filter((move) => move.result === result && move.plies === plies)
    .map((move) => move.move);
  return { words, keep: keep.slice(0, 3) };
}

/** Asks the server until its table is verified (streamed at start), a bounded number of times. */
async function tableReady(base: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const res = await fetch(`${base}/api/tablebase?position=${encodeURIComponent(positionAt(39))}`);
    if (res.status === 200) {
      // The server's reply as the protocol defines it (the page checks it with plain code).
      expect(TablebaseReply.safeParse(await res.json()).success).toBe(true);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the server never verified its table');
}

async function verdictAt(page: Page, ply: number): Promise<{ words: string; keep: string[] }> {
  await page.locator(`[data-replay="${ply}"]`).waitFor();
  const table = page.locator('[data-table]');
  await table.waitFor();
  return {
    words: (await table.locator('.eval').textContent())?.trim() ?? '',
    keep: await table.locator('[data-keep]').allTextContents(),
  };
}

describe('web e2e: the tablebase in the analysis panel (Chromium)', () => {
  it('shows the table’s verdict of each sliding-phase position of a replay', {
    timeout: 120_000,
  }, async () => {
    if (!harness) throw new Error('the harness did not start');
    const { base, browser } = harness;
    await tableReady(base);
    const roomId = await importGame(base, MOVES);

    const { open, errors } = pageOpener(browser);
    const page = await open('replay');
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/tablebase') asked.push(url.searchParams.get('position') ?? '');
    });
    await page.goto(`${base}/r/${roomId}`);
    await page.locator(`[data-replay="${MOVES.length}"]`).waitFor();
    expect(asked).toEqual([]); // not before the panel is switched on
    await page.getByRole('button', { name: 'Analyse', exact: true }).click();

    const table = Tablebase.open(tableDir);
    try {
      const last = await verdictAt(page, 41);
      expect(last).toEqual(expected(table, 41));
      expect(last.words).toMatch(/^Tigers win in \d+ moves?$/);
      await page.getByRole('button', { name: 'Previous move', exact: true }).click();
      expect(await verdictAt(page, 40)).toEqual(expected(table, 40));
      await page.getByRole('button', { name: 'Previous move', exact: true }).click();
      expect(await verdictAt(page, 39)).toEqual(expected(table, 39));
      await expect.poll(() => page.locator('[data-table]').textContent()).toContain('no-repeat rule');
      // A goat still in hand: nothing from the table, and nothing asked.
      await page.getByRole('button', { name: 'Previous move', exact: true }).click();
      await page.locator('[data-replay="38"]').waitFor();
      await page.locator('[data-table]').waitFor({ state: 'detached' });
      // Back to a position seen: its answer is kept, not asked again.
      await page.getByRole('button', { name: 'Last move', exact: true }).click();
      expect(await verdictAt(page, 41)).toEqual(expected(table, 41));
    } finally {
      table.close();
    }
    expect(asked.sort()).toEqual([positionAt(39), positionAt(40), positionAt(41)].sort());
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
