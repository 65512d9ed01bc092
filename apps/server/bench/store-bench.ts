/**
 * The PostgreSQL store alone (no sockets, no rooms' logic): appends of one move each to 1,000 rooms
 * at a fixed rate through PostgresStorage, alternating with `none` (the pacing alone: an append
 * that does nothing) in back-to-back rounds. Prints this process's CPU per append (the node's side:
 * the client, its socket writes and reads, the pacing) and postgres's (postmaster and backends).
 * Beside it, the floors: a bare insert of the same change (one table, no index, the same commit)
 * and a round trip that commits nothing. A variant to compare goes beside `pg` in `clients`.
 *
 *   BENCH_STORE_RATE=200 BENCH_STORE_SECONDS=10 BENCH_STORE_PAIRS=3 nice -n 10 \
 *     node apps/server/dist-bench/bench/store-bench.js
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { openPostgresStorage } from '#server/storage/postgres.js';
import type { StoredChange } from '#server/storage/types.js';
import { startLocalPostgres } from '../support/local-postgres.js';
import { benchMain, out, processTreeCpuMicros, setting, sleep } from './shared.js';

/** Whether the append applied (false: a version conflict, never meant here; null: nothing stored). */
type Append = (roomId: string, expected: number, changes: StoredChange[]) => Promise<boolean | null>;

const ROOMS = 1000;

/** Appends at `rate` a second for `seconds`, round robin over the rooms; CPU µs per append. */
async function measure(
  append: Append,
  versions: number[],
  rate: number,
  seconds: number,
  postgresPid: number,
): Promise<{ node: number; postgres: number; appends: number }> {
  let sent = 0;
  let done = 0;
  let next = 0;
  const busy = new Set<number>();
  const fire = () => {
    // A room whose last append is still in flight is skipped (rare at these rates).
    for (let tries = 0; tries < ROOMS; tries++) {
      const i = next++ % ROOMS;
      if (busy.has(i)) continue;
      busy.add(i);
      const version = versions[i]!;
      sent++;
      void append(`room-${i}`, version, [
        { version: version + 1, kind: 'move', data: { move: 'c3-c4' } },
      ]).then((applied) => {
        if (applied === false) throw new Error(`an append to room-${i} at ${version} did not apply`);
        if (applied) versions[i] = version + 1;
        busy.delete(i);
        done++;
      });
      return;
    }
  };
  const cpu0 = process.cpuUsage();
  const pg0 = processTreeCpuMicros(postgresPid);
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - started;
      const due = Math.min(Math.floor((elapsed * rate) / 1000), rate * seconds);
      while (sent < due) fire();
      if (elapsed >= seconds * 1000) resolve();
      else setTimeout(tick, Math.max(1, 1000 / rate));
    };
    tick();
  });
  while (done < sent) await sleep(5);
  const cpu = process.cpuUsage(cpu0);
  const appends = Math.max(1, done);
  return {
    node: (cpu.user + cpu.system) / appends,
    postgres: (processTreeCpuMicros(postgresPid) - pg0) / appends,
    appends: done,
  };
}

async function main(): Promise<void> {
  const rate = setting('rate', 'BENCH_STORE_RATE', 200);
  const seconds = setting('seconds', 'BENCH_STORE_SECONDS', 10);
  const pairs = setting('pairs', 'BENCH_STORE_PAIRS', 3);
  const local = await startLocalPostgres();
  const storage = await openPostgresStorage(local.url);
  // The floors any PostgreSQL system of record pays on this box: a bare insert of the same
  // change into a table with no other index or constraint, committed as the store's are
  // (synchronous_commit on); and a round trip that commits nothing.
  const floor = new pg.Pool({ connectionString: local.url, max: 10 });
  try {
    const versions = Array.from({ length: ROOMS }, () => 0);
    for (let i = 0; i < ROOMS; i++) {
      await storage.createRoom({
        roomId: `room-${i}`,
        createdAt: Date.now(),
        init: {},
        version: 0,
        changes: [],
      });
    }
    await floor.query('CREATE TABLE IF NOT EXISTS bench_floor (room_id text, version int, changes jsonb)');
    const clients: Record<string, Append> = {
      pg: async (roomId, expected, changes) => (await storage.append(roomId, expected, changes)).ok,
      'bare insert': async (roomId, expected, changes) => {
        await floor.query({
          name: 'bench_floor_insert',
          text: 'INSERT INTO bench_floor VALUES ($1, $2, $3)',
          values: [roomId, expected + 1, JSON.stringify(changes)],
        });
        return null;
      },
      'select 1': async () => {
        await floor.query({ name: 'bench_floor_select', text: 'SELECT 1' });
        return null;
      },
      none: () => new Promise((resolve) => setImmediate(() => resolve(null))),
    };
    // Warm-up: each client's connections open and its statement is prepared.
    for (const append of Object.values(clients)) await measure(append, versions, rate, 2, local.pid);
    out(`store alone: ${ROOMS} rooms, ${rate} appends/s, ${seconds} s per run, ${pairs} rounds`);
    out(
      `load average before: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (let round = 1; round <= pairs; round++) {
      for (const [name, append] of Object.entries(clients)) {
        const r = await measure(append, versions, rate, seconds, local.pid);
        out(
          `round ${round} ${name.padEnd(12)} node ${r.node.toFixed(1).padStart(6)} µs/append  ` +
            `postgres ${r.postgres.toFixed(1).padStart(6)} µs/append  (${r.appends} appends, load ${loadavg()[0]!.toFixed(2)})`,
        );
      }
    }
  } finally {
    await floor.end();
    await storage.close();
    await local.stop();
  }
}

benchMain(main);
