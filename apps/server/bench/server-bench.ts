/**
 * `pnpm bench:server`: N concurrent rooms (2 players + 1 spectator each, random legal games over
 * loopback websockets) against the real server, then the same load against a bare Socket.IO
 * relay that only rebroadcasts a 300-byte state. Each server runs in its own child process, so
 * its CPU time (process.cpuUsage) and RSS are its own. Stops by itself.
 *
 * Both servers get the same offered load (BENCH_RATE moves/s per room, default 2; 0 = as fast
 * as the broadcasts return), so CPU per move compares like with like.
 *
 *   BENCH_ROOMS=1000 BENCH_SECONDS=10 BENCH_RATE=2 pnpm bench:server   (or --rooms= --seconds= --rate=)
 */
import {
  baghLoad,
  benchMain,
  measureRun,
  out,
  type Result,
  relayLoad,
  report,
  ServerProcess,
  setting,
  type Target,
} from './shared.js';

async function run(target: Target, rooms: number, seconds: number, ratePerRoom: number): Promise<Result> {
  const server = new ServerProcess(target);
  try {
    const url = `http://127.0.0.1:${await server.port()}`;
    return await measureRun({
      label: target,
      rooms,
      seconds,
      servers: [server],
      load: () =>
        target === 'bagh' ? baghLoad([url], rooms, { ratePerRoom }) : relayLoad(url, rooms, { ratePerRoom }),
    });
  } finally {
    await server.stop();
  }
}

benchMain(async () => {
  const rooms = setting('rooms', 'BENCH_ROOMS', 1000);
  const seconds = setting('seconds', 'BENCH_SECONDS', 10);
  const ratePerRoom = setting('rate', 'BENCH_RATE', 2, true);
  out(
    `bench: ${rooms} rooms × (2 players + 1 spectator), ${seconds} s per server, loopback websockets, ` +
      (ratePerRoom > 0 ? `≤ ${ratePerRoom} moves/s per room` : 'unpaced'),
  );
  const bagh = await run('bagh', rooms, seconds, ratePerRoom);
  report(bagh);
  const relay = await run('relay', rooms, seconds, ratePerRoom);
  report(relay);
  out(
    `ratio bagh/relay: CPU per move ${(bagh.cpuMicrosPerMove / relay.cpuMicrosPerMove).toFixed(2)}×, ` +
      `RSS per connection ${(bagh.rssPerConnection / relay.rssPerConnection).toFixed(2)}×, ` +
      `p99 latency ${(bagh.p99 / relay.p99).toFixed(2)}×, throughput ${(bagh.moves / bagh.seconds / (relay.moves / relay.seconds)).toFixed(2)}×`,
  );
});
