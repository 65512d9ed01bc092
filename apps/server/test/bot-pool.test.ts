/** The bot pool: worker threads answer with legal moves within the level's budget, and survive a dead worker. */
import { LEVEL_SETTINGS, type Level } from '@bagh/engine';
import { createGame, legalMoves, makeMove, playMoveTexts } from '@bagh/rules';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type BotMoveRequest, BotPool } from '../src/bots/pool.js';

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
  it('answers each level with a legal move within its budget', { timeout: 30_000 }, async () => {
    const bots = pool(1);
    await bots.move(request('beginner')); // the worker has loaded the engine
    for (const level of ['beginner', 'casual', 'strong'] as const) {
      const started = performance.now();
      const reply = await bots.move(request(level));
      const took = performance.now() - started;
      expect(legalTexts(OPENING), level).toContain(reply.move);
      expect(took, level).toBeLessThanOrEqual(LEVEL_SETTINGS[level].budgetMs + 100);
    }
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

  it('replaces a worker that was killed, idle or busy, and still answers', { timeout: 30_000 }, async () => {
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

  it('replaces a worker that overruns its budget badly', { timeout: 30_000 }, async () => {
    // max searches for 2.5 s; an overrun margin of -5.9 s leaves it 100 ms before it is replaced.
    const bots = pool(1, -LEVEL_SETTINGS.max.budgetMs * 2 + 100);
    const first = bots.threads[0]!;
    const started = performance.now();
    const reply = await bots.move(request('max'));
    expect(performance.now() - started).toBeLessThan(1500);
    expect(legalTexts(OPENING)).toContain(reply.move);
    expect(bots.fallbacks).toBe(1);
    expect(bots.threads[0]).not.toBe(first);
    expect(legalTexts(OPENING)).toContain((await bots.move(request('beginner'))).move);
  });

  it('rejects what is pending when closed', async () => {
    const bots = pool(1);
    const pending = bots.move(request('strong')).catch((error: Error) => error);
    await bots.close();
    expect(String(await pending)).toMatch(/closed/);
    await expect(bots.move(request('beginner'))).rejects.toThrow(/closed/);
  });
});
