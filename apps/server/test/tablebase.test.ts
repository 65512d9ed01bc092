/**
 * GET /api/tablebase on a reduced table (the tigers win at the first capture: tier 0 only, built
 * by the real `pnpm tablebase --captures 1`), a missing one and a corrupted one.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.js';
import { makeConfig } from '../src/config.js';
import { removeDir, tempDir } from './helpers.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = tempDir();
const apps: App[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  removeDir(scratch);
});

async function build(tablebaseDir: string): Promise<App> {
  const dataDir = join(scratch, `data-${apps.length}`);
  const app = await buildApp(
    makeConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WEB_DIST: join(dataDir, 'missing'),
      TABLEBASE_DIR: tablebaseDir,
    }),
  );
  apps.push(app);
  return app;
}

const get = (app: App, position: string) =>
  app.fastify.inject({ url: `/api/tablebase?position=${encodeURIComponent(position)}` });

/** Asks until the table's verification (streamed, at start) is over, a bounded number of times. */
async function settled(app: App, position: string) {
  for (let attempt = 0; attempt < 2000; attempt++) {
    const response = await get(app, position);
    if (response.statusCode !== 503 || !response.json().error.message.includes('being verified'))
      return response;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the tablebase was never verified');
}

/** Tigers shut in the corner a1 b1 a2 b2; e5 empty (see packages/engine/tools/tablebase.test.ts). */
const CORNER = 'GGGG1/GGGGG/GGGGG/TTGGG/TTGGG';
const table = join(scratch, 'table');

beforeAll(() => {
  const tool = spawnSync(
    process.execPath,
    [join(root, 'packages/engine/dist-tools/tablebase.js'), '--dir', table, '--captures', '1'],
    {
      encoding: 'utf8',
    },
  );
  expect(tool.status, tool.stderr).toBe(0);
}, 600_000);

describe('GET /api/tablebase', { timeout: 600_000 }, () => {
  it('answers the value of a position and of every legal move, best first', async () => {
    const app = await build(table);
    const response = await settled(app, `${CORNER} g 0 0`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ result: 'goat', plies: 1 });
    expect(
      body.moves
        .slice(0, 2)
        .map((m: { move: string }) => m.move)
        .sort(),
    ).toEqual(['d5-e5', 'e4-e5']);
    expect(body.moves[0]).toEqual({ move: body.moves[0].move, result: 'goat', plies: 1 });
    expect(body.moves[2]).toEqual({ move: 'd4-e5', result: 'tiger', plies: 2 });
    expect((await get(app, `${CORNER} t 0 0`)).json()).toEqual({ result: 'goat', plies: 0, moves: [] });
  });

  it('400 for a bad position or one outside the table', async () => {
    const app = await build(table);
    await settled(app, `${CORNER} g 0 0`);
    for (const position of ['nonsense', 'T3T/5/5/5/T3T g 20 0', 'GGGG1/GGGG1/GGGGG/TTGGG/TTGGG t 0 1']) {
      const response = await get(app, position);
      expect(response.statusCode, position).toBe(400);
      expect(response.json().error.code).toBe('BAD_REQUEST');
    }
    expect((await app.fastify.inject({ url: '/api/tablebase' })).statusCode).toBe(400);
  });

  it('503 with no table, and with a table that fails its checksum', async () => {
    const none = await build(join(scratch, 'nothing-here'));
    const missing = await get(none, `${CORNER} g 0 0`);
    expect(missing.statusCode).toBe(503);
    expect(missing.json().error).toEqual({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/no tablebase/),
    });
    expect(missing.json().error.message).not.toContain(scratch); // no server path told
    // A bad position is a 400, table or not.
    for (const bad of ['garbage', 'T3T/5/5/5/T3T g 20 0']) {
      const refused = await get(none, bad);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().error.code).toBe('BAD_REQUEST');
    }

    const corrupt = join(scratch, 'corrupt');
    cpSync(table, corrupt, { recursive: true });
    const fd = openSync(join(corrupt, 'tier-0.bin'), 'r+');
    writeSync(fd, new Uint8Array([0xff, 0xff]), 0, 2, 1000);
    closeSync(fd);
    const refused = await settled(await build(corrupt), `${CORNER} g 0 0`);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error.message).toMatch(/tier-0.bin does not match its checksum/);
  });
});
