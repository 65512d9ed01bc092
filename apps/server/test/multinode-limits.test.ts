/**
 * With REDIS_URL the budgets are the cluster's: a room budget and a seat's chat budget count
 * across nodes (`node dist/server.js` processes on one real redis-server and PostgreSQL). Run after
 * `pnpm build`.
 */
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { Budget } from '../src/limits/budget.js';
import { createRoom, perTest } from './helpers.js';
import { clusterNodes, startRedis } from './multinode-helpers.js';

const fixture = perTest();
const node = clusterNodes(fixture, { ROOMS_PER_ADDRESS_PER_MINUTE: '3' });

const post = (url: string) =>
  fetch(`${url}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant: 'bagh-chal', side: 'goat' }),
  });

describe('limits across nodes', () => {
  it('one room budget per address, whichever node is asked', async () => {
    const [a, b] = await Promise.all([node(), node()]);
    expect((await post(a.url)).status).toBe(201);
    expect((await post(b.url)).status).toBe(201);
    expect((await post(a.url)).status).toBe(201);
    expect((await post(b.url)).status).toBe(429);
    expect((await post(a.url)).status).toBe(429);
  });

  it("a seat's sockets on both nodes share its chat budget", async () => {
    // The room budget of this address is spent by the test above (it is in Redis): a larger one.
    const roomy = { ROOMS_PER_ADDRESS_PER_MINUTE: '100' };
    const [a, b] = await Promise.all([node(roomy), node(roomy)]);
    const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'goat' });
    const [onA, onB] = await fixture.clients(a.url, b.url);
    for (const c of [onA, onB]) {
      expect(
        await c.request('room:join', { roomId: created.roomId, seatToken: created.seatToken }),
      ).toMatchObject({
        role: 'goat',
      });
    }
    const acks = [];
    for (let i = 0; i < 4; i++) {
      for (const c of [onA, onB]) {
        acks.push(
          await c.request('chat:send', { roomId: created.roomId, channel: 'players', text: `m${i}` }),
        );
      }
    }
    expect(acks.filter((ack) => ack.ok)).toHaveLength(5);
    expect(acks.at(-1)).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
  });
});

describe('a budget in Redis', () => {
  it('is shared by every client of the Redis, and counts in memory while Redis is frozen or gone', async () => {
    const redis = await startRedis();
    fixture.defer(() => redis.stop());
    const clients = [createClient({ url: redis.url }), createClient({ url: redis.url })];
    for (const c of clients) {
      c.on('error', () => {});
      await c.connect();
      fixture.defer(() => (c.isOpen ? c.destroy() : undefined));
    }
    const spec = { points: 3, durationMs: 60_000 };
    const [one, two] = clients.map((c) => new Budget('test', spec, c));
    const verdicts = [await one!.take('k'), await two!.take('k'), await one!.take('k'), await two!.take('k')];
    expect(verdicts.map((v) => v.ok)).toEqual([true, true, true, false]);
    expect(verdicts[3]).toMatchObject({ retryAfterMs: expect.any(Number) });
    expect((await two!.take('other')).ok).toBe(true);

    const takes = async (key: string) => {
      const verdicts = [];
      for (let i = 0; i < 4; i++) verdicts.push((await one!.take(key)).ok);
      return verdicts;
    };
    // Redis frozen (no answer at all), then gone: the node counts on its own meanwhile, neither
    // refusing everyone, nor throwing, nor keeping the caller waiting for good.
    process.kill(redis.pid, 'SIGSTOP');
    try {
      expect(await takes('frozen')).toEqual([true, true, true, false]);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
    await redis.stop();
    expect(await takes('gone')).toEqual([true, true, true, false]);
  });
});
