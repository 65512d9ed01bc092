/** The bot pool's queue: one request per room, earliest due first, due = queued + PATIENCE × budget. */
import { LEVEL_SETTINGS } from '@bagh/engine';
import { describe, expect, it } from 'vitest';
import { FairQueue, PATIENCE } from '../src/bots/queue.js';

const MAX = LEVEL_SETTINGS.max.budgetMs;
const BEGINNER = LEVEL_SETTINGS.beginner.budgetMs;

function takeAll<T>(queue: FairQueue<T>): T[] {
  const taken: T[] = [];
  for (let item = queue.take(); item !== undefined; item = queue.take()) taken.push(item);
  return taken;
}

describe('the bot queue', () => {
  it('serves rooms at one level in turn, first queued first', () => {
    const queue = new FairQueue<string>();
    for (const [i, room] of ['a', 'b', 'c'].entries()) queue.put(room, room, MAX, i);
    expect(takeAll(queue)).toEqual(['a', 'b', 'c']);
  });

  it('keeps one request per room: a newer one replaces the older, in its place', () => {
    const queue = new FairQueue<string>();
    expect(queue.put('a', 'a1', MAX, 0)).toBeUndefined();
    queue.put('b', 'b1', MAX, 1);
    expect(queue.put('a', 'a2', MAX, 2)).toBe('a1');
    expect(queue.size).toBe(2);
    expect(takeAll(queue)).toEqual(['a2', 'b1']);
  });

  it('puts a beginner before max searches queued a little earlier, never before long-waiting ones', () => {
    const queue = new FairQueue<string>();
    const overtakes = (MAX - BEGINNER) * PATIENCE;
    queue.put('old', 'old max', MAX, 0);
    queue.put('recent', 'recent max', MAX, overtakes);
    queue.put('b', 'beginner', BEGINNER, overtakes + 1);
    expect(takeAll(queue)).toEqual(['old max', 'beginner', 'recent max']);
  });

  it('removes only the request still queued for its room, and clears', () => {
    const queue = new FairQueue<string>();
    queue.put('a', 'a1', MAX, 0);
    queue.put('a', 'a2', MAX, 1);
    expect(queue.remove('a', 'a1')).toBe(false);
    queue.put('b', 'b1', MAX, 2);
    expect(queue.remove('a', 'a2')).toBe(true);
    expect(queue.clear()).toEqual(['b1']);
    expect(queue.take()).toBeUndefined();
  });
});
