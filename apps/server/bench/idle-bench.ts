/**
 * What a node costs with nothing played: N rooms' sockets connected and joined (2 players + 1
 * spectator each, each room's sockets on one node), no moves, CPU ms per second of each server
 * process and of redis-server and postgres, for one node on SQLite, one on PostgreSQL and two on
 * PostgreSQL and Redis.
 *
 *   BENCH_IDLE_ROOMS=200 BENCH_IDLE_SECONDS=20 nice -n 10 node apps/server/dist-bench/bench/idle-bench.js
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import {
  baghLoad,
  benchMain,
  labelOf,
  out,
  processCpuMicros,
  processTreeCpuMicros,
  type Store,
  setting,
  sleep,
  startCluster,
} from './shared.js';

async function idle(nodes: number, store: Store, rooms: number, seconds: number): Promise<void> {
  const cluster = await startCluster(nodes, store);
  const { servers, redis, postgres } = cluster;
  try {
    const urls = await Promise.all(servers.map(async (s) => `http://127.0.0.1:${await s.port()}`));
    const load = rooms > 0 ? await baghLoad(urls, rooms, { ratePerRoom: 1, sameNode: true }) : undefined;
    await sleep(3000); // the set-up's work settles
    const cpu = async () => Promise.all(servers.map(async (s) => (await s.stats()).cpuMicros));
    const helpers = (): Record<string, number> => ({
      ...(redis ? { 'redis-server': processCpuMicros(redis.pid) } : {}),
      ...(postgres ? { postgres: processTreeCpuMicros(postgres.pid) } : {}),
    });
    // The transactions committed meanwhile, this query's own excepted: who talks to postgres when idle.
    const commits = async () => {
      if (!postgres) return 0;
      const client = new pg.Client(postgres.url);
      await client.connect();
      const { rows } = await client.query<{ n: string }>(
        "SELECT xact_commit AS n FROM pg_stat_database WHERE datname = 'postgres'",
      );
      await client.end();
      return Number(rows[0]!.n);
    };
    const commitsBefore = await commits();
    const before = await cpu();
    const helpersBefore = helpers();
    const started = performance.now();
    await sleep(seconds * 1000);
    const elapsed = (performance.now() - started) / 1000;
    const after = await cpu();
    const helpersAfter = helpers();
    const committed = (await commits()) - commitsBefore - 1;
    load?.close();
    const perSecond = (micros: number) => `${(micros / 1000 / elapsed).toFixed(1)} ms/s`;
    const each = after.map((a, i) => a - before[i]!);
    const label = labelOf(nodes, store);
    out(
      `${label.padEnd(21)} nodes ${perSecond(each.reduce((s, x) => s + x, 0))} (${each.map(perSecond).join(', ')})` +
        Object.entries(helpersAfter)
          .map(([name, micros]) => `; ${name} ${perSecond(micros - helpersBefore[name]!)}`)
          .join('') +
        (postgres ? `; ${(committed / elapsed).toFixed(1)} transactions/s` : '') +
        `  (load ${loadavg()[0]!.toFixed(2)})`,
    );
  } finally {
    await cluster.stop();
  }
}

benchMain(async () => {
  const rooms = setting('rooms', 'BENCH_IDLE_ROOMS', 200, true);
  const seconds = setting('seconds', 'BENCH_IDLE_SECONDS', 20);
  out(`idle: ${rooms} rooms × 3 sockets, no moves, ${seconds} s per run`);
  out(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  await idle(1, 'sqlite', rooms, seconds);
  await idle(1, 'postgres', rooms, seconds);
  await idle(2, 'postgres', rooms, seconds);
});
