/**
 * The bot pool: worker threads answer with legal moves (the engine's tests hold each level to its
 * budget with an injected clock; no wall-clock bound here, the machine may be loaded), survive a dead
 * worker, take back requests nobody wants (queued or running), and keep one request per room,
 * the quick levels not held behind long searches.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEVEL_SETTINGS, LEVELS, type Level } from '@bagh/engine';
import { Tablebase } from '@bagh/engine/tablebase';
import { createGame, legalMoves, makeMove, parsePosition, playMoveTexts } from '@bagh/rules';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type BotMoveRequest, BotPool, BotSearchCancelled } from '../src/bots/pool.js';
import { waitUntil } from './helpers.js';

const log = pino({ level: 'silent' });
const pools: BotPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});
function pool(workers: number, overrunMs?: number): BotPool {
  const made = new BotPool({ workers, log, ...(overrunMs !== undefined ? { overrunMs } : {}) });
  pools.push(made);
  return made;
}

const OPENING = ['G@c3', 'a1-b2', 'G@a1', 'e5-d4'];
const request = (level: Level, moves: string[] = OPENING, seed = 7): BotMoveRequest => ({
  variant: 'bagh-chal',
  options: {},
  moves,
  level,
  seed,
});

function legalTexts(moves: string[]): string[] {
  const start = createGame('bagh-chal');
  if (!start.ok) throw new Error(start.error.message);
  const played = playMoveTexts(start.value, moves);
  if (!played.ok) throw new Error(played.error.message);
  return legalMoves(played.value).map(makeMove);
}

describe('bot pool', () => {
  it('answers each level with a legal move', async () => {
    const bots = pool(1);
    for (const level of LEVELS) {
      const reply = await bots.move(request(level));
      expect(legalTexts(OPENING), level).toContain(reply.move);
    }
    expect(bots.searches).toBe(LEVELS.length);
  });

  it('queues requests beyond its workers and answers them all, in any variant', async () => {
    const bots = pool(2);
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, seed) =>
        bots.move({ ...request('beginner', [], seed), variant: 'bagh-guti' }),
      ),
    );
    const start = createGame('bagh-guti');
    if (!start.ok) throw new Error('no game');
    const legal = legalMoves(start.value).map(makeMove);
    for (const reply of replies) expect(legal).toContain(reply.move);
  });

  it('answers null for a finished game, and rejects a request that does not replay', async () => {
    const bots = pool(1);
    await expect(bots.move(request('beginner', ['a1-a2']))).rejects.toThrow(/move 1/);
    const inline = pool(0);
    expect((await inline.move(request('casual'))).move).toMatch(/^G@/);
  });

  it('replaces a worker that was killed, idle or busy, and still answers', async () => {
    const bots = pool(1);
    await bots.move(request('beginner'));
    const first = bots.threads[0]!;
    await first.terminate();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bots.threads[0]).not.toBe(first);
    expect(legalTexts(OPENING)).toContain((await bots.move(request('casual'))).move);

    // Killed in the middle of a search: the request is answered by the quick inline search.
    const busy = bots.move(request('max'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await bots.threads[0]!.terminate();
    expect(legalTexts(OPENING)).toContain((await busy).move);
    expect(bots.fallbacks).toBe(1);
    expect(legalTexts(OPENING)).toContain((await bots.move(request('beginner'))).move);
  });

  it('replaces a worker that overruns its budget badly', async () => {
    // max searches for 2.5 s; an overrun margin of -5.9 s leaves it 100 ms before it is replaced.
    const bots = pool(1, -LEVEL_SETTINGS.max.budgetMs * 2 + 100);
    const first = bots.threads[0]!;
    const reply = await bots.move(request('max'));
    expect(legalTexts(OPENING)).toContain(reply.move);
    expect(bots.fallbacks).toBe(1);
    expect(bots.threads[0]).not.toBe(first);
    expect(legalTexts(OPENING)).toContain((await bots.move(request('beginner'))).move);
  });

  it('drops a cancelled request from the queue, and stops a cancelled search early', async () => {
    // The search stops at its next check of the flag (the engine's tests count that, without a
    // clock); here: the flag reaches the worker, which is then free and sound.
    const bots = pool(1);
    await bots.move(request('beginner')); // the worker has loaded the engine
    const running = new AbortController();
    const queued = new AbortController();
    const first = bots.move(request('max'), { signal: running.signal }).catch((error: Error) => error);
    const second = bots.move(request('max', ['G@c3', 'a1-b2']), { signal: queued.signal });
    expect([bots.busy, bots.queued]).toEqual([1, 1]);
    queued.abort();
    await expect(second).rejects.toBeInstanceOf(BotSearchCancelled);
    expect(bots.queued).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, 50)); // the search is under way
    running.abort();
    expect(await first).toBeInstanceOf(BotSearchCancelled);
    await waitUntil(() => bots.busy === 0, 20_000);
    expect([bots.cancelled, bots.searches, bots.fallbacks]).toEqual([2, 2, 0]);
    // The worker is free and sound.
    expect(legalTexts(OPENING)).toContain((await bots.move(request('beginner'))).move);
  });

  it('keeps one request per room, and serves a beginner before max searches queued earlier', async () => {
    const bots = pool(1);
    const answered: string[] = [];
    const track = (name: string, reply: Promise<unknown>) =>
      reply.then(
        () => answered.push(name),
        (error: Error) => answered.push(`${name}: ${error.name}`),
      );
    const cancel = new AbortController();
    const busy = track('busy', bots.move(request('max')));
    const waiting = ['m1', 'm2', 'm3'].map((room) =>
      track(room, bots.move(request('max', ['G@c3']), { room, signal: cancel.signal })),
    );
    const older = track('b old', bots.move(request('beginner', ['G@c3']), { room: 'b' }));
    const newer = track('b', bots.move(request('beginner', ['G@c3', 'a1-b2', 'G@a1']), { room: 'b' }));
    expect(bots.queued).toBe(4); // m1, m2, m3 and b's newer request
    await Promise.all([older, busy, newer]);
    cancel.abort();
    await Promise.all(waiting);
    expect(answered).toEqual([
      'b old: BotSearchCancelled',
      'busy',
      'b',
      'm1: BotSearchCancelled',
      'm2: BotSearchCancelled',
      'm3: BotSearchCancelled',
    ]);
    expect(bots.queued).toBe(0);
  });

  it('rejects what is pending when closed', async () => {
    const bots = pool(1);
    const pending = bots.move(request('strong')).catch((error: Error) => error);
    await bots.close();
    expect(String(await pending)).toMatch(/closed/);
    await expect(bots.move(request('beginner'))).rejects.toThrow(/closed/);
  });
});

describe('bot pool with a tablebase', () => {
  // The reduced table (the tigers win at the first capture: one tier, 1 MB) built by the real tool.
  const dir = mkdtempSync(join(tmpdir(), 'bagh-pool-table-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tool = fileURLToPath(new URL('../../../packages/engine/dist-tools/tablebase.js', import.meta.url));
  /** Tigers to move, d4 the one empty point: b2xd4 wins at once (reduced rules), e5-d4 does not. */
  const ONE_CAPTURE = 'GGGGT/GGG1G/GGGGG/TTGGG/GTGGG t 0 0';
  const sliding: BotMoveRequest = {
    variant: 'bagh-chal',
    options: {},
    start: ONE_CAPTURE,
    moves: [],
    level: 'max',
    seed: 1,
  };

  it('plays the table’s only winning move at max once told to, in its workers and in those spawned later', {
    timeout: 600_000,
  }, async () => {
    const built = spawnSync(process.execPath, [tool, '--dir', dir, '--captures', '1']);
    expect(built.status).toBe(0);
    const table = Tablebase.open(dir);
    const start = parsePosition(ONE_CAPTURE);
    if (!start.ok) throw new Error(start.error.message);
    const game = createGame('bagh-chal', {}, start.value);
    if (!game.ok) throw new Error(game.error.message);
    const best = table.bestMove(game.value);
    table.close();
    expect(best && makeMove(best)).toBe('b2xd4');

    const bots = pool(1);
    const searched = await bots.move(sliding);
    expect(searched.nodes).toBeGreaterThan(0);

    bots.useTablebase(dir);
    const probed = await bots.move(sliding);
    expect(probed).toEqual({ move: makeMove(best!), depth: 0, nodes: 0 });
    // Below max, and outside the table (the placement phase), the search answers as before.
    expect((await bots.move({ ...sliding, level: 'strong' })).nodes).toBeGreaterThan(0);
    expect((await bots.move(request('max'))).nodes).toBeGreaterThan(0);

    const first = bots.threads[0]!;
    await first.terminate();
    await waitUntil(() => bots.threads[0] !== first);
    expect(await bots.move(sliding)).toEqual(probed);
  });
});
