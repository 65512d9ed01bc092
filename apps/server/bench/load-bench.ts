/**
 * `pnpm bench:load`: N concurrent rooms (2 players + 1 spectator each, random legal games,
 * loopback websockets) against
 *   - relay:    the bare Socket.IO relay of bench:server (the yardstick, same run),
 *   - 1 node:   one Bagh server on SQLite (the single-node deployment),
 *   - 1 node on PostgreSQL: one Bagh server on PostgreSQL, no Redis (the store of a cluster
 *               without the scale-out: what 2 nodes cost beyond it is the scale-out's alone),
 *   - N nodes:  N Bagh servers (each its own process) sharing a PostgreSQL (the rooms) and a
 *               redis-server (the Socket.IO adapter); room i's goat on node i, its tiger and
 *               spectator on node i+1 (mod N), so every move crosses two nodes,
 * printing moves/s, cluster CPU µs per move (the node processes summed, their kernel time beside
 * it; redis-server's and postgres's — postmaster and backends — too), p50/p99 move→broadcast
 * latency, RSS per connection and the errors by code, then the ratios against the relay and
 * against half the nodes, and the issue-17 goals judged on this run twice: as the issue states them (N nodes against one node on SQLite)
 * and the scale-out alone (N nodes against one node on PostgreSQL). Then the human-pace case:
 * many rooms, one move per 5 s per room, reporting p99. Then the restart under load: one node stopped with SIGTERM and started again
 * while its rooms play (see restart-load.ts). Bounded in count and time; stops by itself.
 *
 *   BENCH_ROOMS=1000 BENCH_SECONDS=10 BENCH_RATE=2            the throughput runs
 *   BENCH_NODES=1,2,4                                         their node counts (empty: relay only;
 *                                                             1 runs one node on SQLite and one on
 *                                                             PostgreSQL)
 *   BENCH_SAME_NODE=1                                         also 2 nodes with each room on one node
 *                                                             (owner-node routing), at both paces, and 4
 *                                                             so at the throughput pace (with 4 in BENCH_NODES)
 *   BENCH_HUMAN_ROOMS=5000 BENCH_HUMAN_SECONDS=30             the human-pace runs (0 rooms: skip)
 *   BENCH_HUMAN_NODES=1,2                                     their node counts (1: both stores)
 *   BENCH_RESTART_ROOMS=1000                                  the restart under load (0: skip)
 *   BENCH_WARMUP=10                                           seconds of unmeasured play first (JIT)
 *   BENCH_PAIRS=0                                             then relay and 1 node again, back to back
 *                                                             this many times: each pair's ratio, and
 *                                                             the median (the box's noise, seen)
 *   REDIS_SERVER=/usr/bin/redis-server, PG_BIN=/usr/lib/postgresql/15/bin   started on free loopback ports
 * e.g. a quick look: BENCH_ROOMS=200 BENCH_SECONDS=5 BENCH_HUMAN_ROOMS=0 BENCH_RESTART_ROOMS=0 pnpm bench:load
 */
import { loadavg } from 'node:os';
import { restartUnderLoad } from './restart-load.js';
import {
  baghLoad,
  benchMain,
  labelOf,
  measureRun,
  out,
  processCpuMicros,
  processTreeCpuMicros,
  type Result,
  relayLoad,
  report,
  ServerProcess,
  type Store,
  setting,
  startCluster,
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

/**
 * `nodes` Bagh servers on `store`: one node on SQLite is the single-node deployment; on
 * PostgreSQL one node runs without Redis, several share a redis-server too.
 */
async function bagh(
  nodes: number,
  store: Store,
  rooms: number,
  seconds: number,
  ratePerRoom: number,
  sameNode = false,
): Promise<Result> {
  if (nodes > 1 && store === 'sqlite') throw new Error('several nodes need PostgreSQL');
  const cluster = await startCluster(nodes, store);
  const { servers, redis, postgres } = cluster;
  const helpers: Record<string, () => number> = {};
  if (redis) helpers['redis-server'] = () => processCpuMicros(redis.pid);
  // postgres: the postmaster and its backends (its children).
  if (postgres) helpers.postgres = () => processTreeCpuMicros(postgres.pid);
  try {
    const urls = await urlsOf(servers);
    return await measureRun({
      label: labelOf(nodes, store) + (sameNode ? ', rooms on one node' : ''),
      rooms,
      seconds,
      servers,
      load: () => baghLoad(urls, rooms, { ratePerRoom, batch: 50, sameNode }),
      helpers,
    });
  } finally {
    await cluster.stop();
  }
}

/** One node runs on either store; several need PostgreSQL. */
const storesOf = (nodes: number): readonly Store[] => (nodes === 1 ? ['sqlite', 'postgres'] : ['postgres']);

/** The runs of one pace: 1 node on each store, N nodes (on PostgreSQL), keyed by labelOf. */
async function runs(
  counts: readonly number[],
  rooms: number,
  seconds: number,
  ratePerRoom: number,
): Promise<Map<string, Result>> {
  const done = new Map<string, Result>();
  for (const n of counts) {
    for (const store of storesOf(n)) {
      const result = await bagh(n, store, rooms, seconds, ratePerRoom);
      report(result, 8);
      done.set(labelOf(n, store), result);
    }
  }
  return done;
}

/** A list of node counts from the environment ("1,2,4"); empty skips those runs. */
function nodeCounts(env: string, fallback: readonly number[]): number[] {
  const raw = process.env[env];
  if (raw === undefined) return [...fallback];
  const counts = raw
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 8)) {
    throw new Error(`${env} must list node counts from 1 to 8, got ${raw}`);
  }
  return counts;
}

const ratio = (a: Result | undefined, b: Result | undefined, of: (r: Result) => number) =>
  a && b ? `${(of(a) / of(b)).toFixed(2)}×` : 'n/a';

/** A measured ratio against its goal, e.g. "2 nodes / 1 node CPU/move 1.12× (goal ≤ 1.3×: met)". */
function goal(
  what: string,
  a: Result | undefined,
  b: Result | undefined,
  of: (r: Result) => number,
  most: number,
) {
  if (!a || !b) return;
  const value = of(a) / of(b);
  out(`  ${what} ${value.toFixed(2)}× (goal ≤ ${most}×: ${value <= most ? 'met' : 'NOT met'})`);
}

benchMain(async () => {
  const rooms = setting('rooms', 'BENCH_ROOMS', 1000);
  const seconds = setting('seconds', 'BENCH_SECONDS', 10);
  const ratePerRoom = setting('rate', 'BENCH_RATE', 2, true);
  const nodes = nodeCounts('BENCH_NODES', [1, 2, 4]);
  const humanRooms = setting('human-rooms', 'BENCH_HUMAN_ROOMS', 5000, true);
  const humanSeconds = setting('human-seconds', 'BENCH_HUMAN_SECONDS', 30);
  const humanNodes = nodeCounts('BENCH_HUMAN_NODES', [1, 2]);
  const restartRooms = setting('restart-rooms', 'BENCH_RESTART_ROOMS', 1000, true);
  const pace = ratePerRoom > 0 ? `≤ ${ratePerRoom} moves/s per room` : 'unpaced';
  out(`bench:load: ${rooms} rooms × (2 players + 1 spectator), ${seconds} s per run, loopback, ${pace}`);
  out(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const base = await relay(rooms, seconds, ratePerRoom);
  report(base, 8);
  const fast = await runs(nodes, rooms, seconds, ratePerRoom);
  // The rooms whose sockets share a node: what owner-node routing (deploy/nginx.conf) gives.
  const sameNode = process.env.BENCH_SAME_NODE === '1';
  let routed: Result | undefined;
  let routedFour: Result | undefined;
  if (sameNode) {
    routed = await bagh(2, 'postgres', rooms, seconds, ratePerRoom, true);
    report(routed, 8);
    if (nodes.includes(4)) {
      routedFour = await bagh(4, 'postgres', rooms, seconds, ratePerRoom, true);
      report(routedFour, 8);
    }
  }
  const cpu = (r: Result) => r.cpuMicrosPerMove;
  for (const n of nodes) {
    for (const store of storesOf(n)) {
      const r = fast.get(labelOf(n, store));
      if (!r) continue;
      out(
        `vs relay: ${r.label} CPU/move ${ratio(r, base, cpu)}, ` +
          `RSS/connection ${ratio(r, base, (x) => x.rssPerConnection)}, p99 ${ratio(r, base, (x) => x.p99)}` +
          (n > 1
            ? `; vs ${labelOf(n / 2, 'postgres')}: CPU/move ${ratio(r, fast.get(labelOf(n / 2, 'postgres')), cpu)}`
            : ''),
      );
    }
  }

  let human = new Map<string, Result>();
  if (humanRooms > 0 && humanNodes.length > 0) {
    out(`human pace: ${humanRooms} rooms, one move per 5 s per room, ${humanSeconds} s (goal: p99 < 20 ms)`);
    human = await runs(humanNodes, humanRooms, humanSeconds, 0.2);
  }
  let humanRouted: Result | undefined;
  if (humanRooms > 0 && sameNode) {
    humanRouted = await bagh(2, 'postgres', humanRooms, humanSeconds, 0.2, true);
    report(humanRouted, 8);
  }

  const p99 = (r: Result) => r.p99;
  out(`goals (issue 17), this run, load average now ${loadavg()[0]!.toFixed(2)}:`);
  out(' as the issue states them (one node = the single-node deployment, on SQLite):');
  const one = fast.get('1 node');
  goal('1 node / relay CPU/move', one, base, cpu, 2);
  goal('2 nodes / 1 node CPU/move', fast.get('2 nodes'), one, cpu, 1.3);
  goal('4 nodes / 2 nodes CPU/move', fast.get('4 nodes'), fast.get('2 nodes'), cpu, 1.3);
  goal('2 nodes / 1 node p99 at human pace', human.get('2 nodes'), human.get('1 node'), p99, 2);
  goal('2 nodes, rooms on one node / 1 node CPU/move', routed, one, cpu, 1.3);
  goal('4 nodes / 2 nodes, rooms on one node, CPU/move', routedFour, routed, cpu, 1.3);
  goal('2 nodes, rooms on one node / 1 node p99 at human pace', humanRouted, human.get('1 node'), p99, 2);
  // Not the ratios: both sides on PostgreSQL, so the store's cost is on both.
  out(" the scale-out alone (one node on PostgreSQL, no Redis; not the issue's ratios):");
  const onePg = fast.get('1 node on PostgreSQL');
  out(
    `  1 node on PostgreSQL / relay CPU/move ${ratio(onePg, base, cpu)} (the store's share: 1 node / relay above)`,
  );
  goal('2 nodes / 1 node on PostgreSQL CPU/move', fast.get('2 nodes'), onePg, cpu, 1.3);
  goal('2 nodes, rooms on one node / 1 node on PostgreSQL CPU/move', routed, onePg, cpu, 1.3);
  const humanPg = human.get('1 node on PostgreSQL');
  goal('2 nodes / 1 node on PostgreSQL p99 at human pace', human.get('2 nodes'), humanPg, p99, 2);
  goal('2 nodes, rooms on one node / 1 node on PostgreSQL p99 at human pace', humanRouted, humanPg, p99, 2);

  const pairs = setting('pairs', 'BENCH_PAIRS', 0, true);
  if (pairs > 0) {
    out(`1 node / relay CPU/move in ${pairs} more pairs, back to back (the first run's above):`);
    const ratios: number[] = [];
    for (let pair = 1; pair <= pairs; pair++) {
      const relayed = await relay(rooms, seconds, ratePerRoom);
      const single = await bagh(1, 'sqlite', rooms, seconds, ratePerRoom);
      ratios.push(cpu(single) / cpu(relayed));
      out(
        `  pair ${pair}: relay ${cpu(relayed).toFixed(0)}, 1 node ${cpu(single).toFixed(0)} µs/move: ` +
          `${ratios.at(-1)!.toFixed(2)}× (load average ${loadavg()[0]!.toFixed(2)})`,
      );
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    const middle = sorted.length / 2;
    const median =
      sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    out(
      `  median ${median.toFixed(2)}× (range ${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)}×; ` +
        `goal ≤ 2×: ${median <= 2 ? 'met' : 'NOT met'})`,
    );
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
