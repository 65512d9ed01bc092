/**
 * `pnpm bench:load`: N concurrent rooms (2 players + 1 spectator each, random legal games,
 * loopback websockets) against
 *   - relay:   the bare Socket.IO relay of bench:server (the yardstick, same run),
 *   - 1 node:  one Bagh server on SQLite,
 *   - 2 nodes: two Bagh servers sharing a PostgreSQL (the rooms) and a redis-server (the Redis
 *              Streams adapter),
 *              each room's goat on one node, its tiger and spectator on the other,
 * printing moves/s, server CPU µs per move (the server processes summed; redis-server's own CPU
 * and postgres's shown beside), p50/p99 move→broadcast latency and RSS per connection. Then the human-pace case:
 * many rooms, one move per 5 s per room, reporting p99 on one node and on two. Then the restart
 * under load: one node stopped with SIGTERM and started again while its rooms play (see
 * restart-load.ts). Stops by itself.
 *
 *   BENCH_ROOMS=1000 BENCH_SECONDS=10 BENCH_RATE=2            the throughput runs
 *   BENCH_HUMAN_ROOMS=5000 BENCH_HUMAN_SECONDS=30             the human-pace runs (0 rooms: skip)
 *   BENCH_RESTART_ROOMS=1000                                  the restart under load (0: skip)
 *   REDIS_SERVER=/usr/bin/redis-server, PG_BIN=/usr/lib/postgresql/15/bin   started on free loopback ports
 */
import { startLocalPostgres } from '../support/local-postgres.js';
import { startLocalRedis } from '../support/local-redis.js';
import { restartUnderLoad } from './restart-load.js';
import {
  baghLoad,
  benchMain,
  measureRun,
  out,
  processCpuMicros,
  processTreeCpuMicros,
  type Result,
  relayLoad,
  report,
  ServerProcess,
  setting,
} from './shared.js';

async function urlsOf(servers: readonly ServerProcess[]): Promise<string[]> {
  return Promise.all(servers.map(async (s) => `http://127.0.0.1:${await s.port()}`));
}

async function relay(rooms: number, seconds: number, ratePerRoom: number): Promise<Result> {
  const server = new ServerProcess('relay');
  try {
    const [url] = await urlsOf([server]);
    return await measureRun({
      label: 'relay',
      rooms,
      seconds,
      servers: [server],
      load: () => relayLoad(url!, rooms, { ratePerRoom }),
    });
  } finally {
    await server.stop();
  }
}

async function bagh(nodes: 1 | 2, rooms: number, seconds: number, ratePerRoom: number): Promise<Result> {
  const redis = nodes === 2 ? await startLocalRedis() : undefined;
  const postgres = nodes === 2 ? await startLocalPostgres() : undefined;
  const servers = Array.from(
    { length: nodes },
    () =>
      new ServerProcess('bagh', redis && postgres ? { redisUrl: redis.url, databaseUrl: postgres.url } : {}),
  );
  try {
    const urls = await urlsOf(servers);
    return await measureRun({
      label: nodes === 1 ? '1 node' : '2 nodes',
      rooms,
      seconds,
      servers,
      load: () => baghLoad(urls, rooms, { ratePerRoom, batch: 100 }),
      // redis-server's and postgres's (the postmaster; its backends are its children) CPU.
      ...(redis && postgres
        ? { extraCpu: () => processCpuMicros(redis.pid) + processTreeCpuMicros(postgres.pid) }
        : {}),
    });
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await redis?.stop();
    await postgres?.stop();
  }
}

benchMain(async () => {
  const rooms = setting('rooms', 'BENCH_ROOMS', 1000);
  const seconds = setting('seconds', 'BENCH_SECONDS', 10);
  const ratePerRoom = setting('rate', 'BENCH_RATE', 2, true);
  const humanRooms = setting('human-rooms', 'BENCH_HUMAN_ROOMS', 5000, true);
  const humanSeconds = setting('human-seconds', 'BENCH_HUMAN_SECONDS', 30);
  const restartRooms = setting('restart-rooms', 'BENCH_RESTART_ROOMS', 1000, true);
  const pace = ratePerRoom > 0 ? `≤ ${ratePerRoom} moves/s per room` : 'unpaced';
  out(`bench:load: ${rooms} rooms × (2 players + 1 spectator), ${seconds} s per run, loopback, ${pace}`);

  const base = await relay(rooms, seconds, ratePerRoom);
  report(base, 8);
  const one = await bagh(1, rooms, seconds, ratePerRoom);
  report(one, 8);
  const two = await bagh(2, rooms, seconds, ratePerRoom);
  report(two, 8);
  const ratio = (r: Result) =>
    `CPU/move ${(r.cpuMicrosPerMove / base.cpuMicrosPerMove).toFixed(2)}×, ` +
    `RSS/connection ${(r.rssPerConnection / base.rssPerConnection).toFixed(2)}×, ` +
    `p99 ${(r.p99 / base.p99).toFixed(2)}×`;
  out(`vs relay: 1 node ${ratio(one)}; 2 nodes ${ratio(two)}`);
  const redisCpu = two.extraCpuMicrosPerMove ?? Number.NaN;
  out(
    `PostgreSQL and Redis hop per move: +${(two.cpuMicrosPerMove - one.cpuMicrosPerMove).toFixed(1)} µs node CPU ` +
      `(+${redisCpu.toFixed(1)} µs in redis-server and postgres), ` +
      `p50 +${(two.p50 - one.p50).toFixed(2)} ms, p99 +${(two.p99 - one.p99).toFixed(2)} ms`,
  );

  if (humanRooms > 0) {
    out(`human pace: ${humanRooms} rooms, one move per 5 s per room, ${humanSeconds} s (goal: p99 < 20 ms)`);
    const humanOne = await bagh(1, humanRooms, humanSeconds, 0.2);
    report(humanOne, 8);
    const humanTwo = await bagh(2, humanRooms, humanSeconds, 0.2);
    report(humanTwo, 8);
  }

  if (restartRooms > 0) {
    const r = await restartUnderLoad(restartRooms, 0.5);
    out(
      `restart under load: ${r.rooms} rooms (${r.clients} clients, one move per 2 s per room), SIGTERM and ` +
        `start again (away ${(r.downMs / 1000).toFixed(1)} s): 95% back ${(r.back95Ms / 1000).toFixed(2)} s, ` +
        `100% back ${(r.back100Ms / 1000).toFixed(2)} s after it listened; ` +
        `${r.acked} moves acknowledged, ${r.lost} lost, ${r.unsent} played that no client sent`,
    );
  }
});
