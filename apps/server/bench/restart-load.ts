/**
 * The restart under load of `pnpm bench:load`: N rooms at play (PlayingRooms: reconnecting
 * clients that re-join with their seat tokens and `since`) on one server process (`node
 * dist/server.js`, SQLite), stopped with SIGTERM as a deploy does and started again on the same
 * port and data. Measured: how long after the new process listens 95% and 100% of the clients
 * are back in their rooms, and how many acknowledged moves the rooms no longer have (must be 0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/local-redis.js';
import { type ServerProcess, startServerProcess } from '../support/local-server.js';
import { PlayingRooms, type Verdict } from './playing-rooms.js';
import { sleep } from './shared.js';

export interface RestartResult extends Verdict {
  readonly rooms: number;
  readonly clients: number;
  /** ms from the new process listening until 95% / all of the clients had re-joined (NaN: never). */
  readonly back95Ms: number;
  readonly back100Ms: number;
  /** ms the server was away: from the stop signal until the new process listened. */
  readonly downMs: number;
}

/** How long the clients may take to come back before the run gives up on the rest. */
const BACK_LIMIT_MS = 60_000;

export async function restartUnderLoad(rooms: number, ratePerRoom: number): Promise<RestartResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bagh-restart-'));
  const env = {
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    WEB_DIST: join(dataDir, 'none'),
    // One address opens every socket and room of the run.
    ROOMS_PER_ADDRESS_PER_MINUTE: '1000000',
    MAX_SOCKETS_PER_ADDRESS: '1000000',
  };
  let server: ServerProcess = await startServerProcess(env);
  let playing: PlayingRooms | undefined;
  try {
    playing = await PlayingRooms.open(server.url, rooms, ratePerRoom);
    await sleep(3000);
    const stopping = performance.now();
    await server.stop('SIGTERM');
    server = await startServerProcess(env);
    const listening = performance.now();
    await playing.allBack(BACK_LIMIT_MS, listening);
    const back = playing.clients
      .map((c) => (c.joinedAt >= listening ? c.joinedAt - listening : Number.NaN))
      .filter((ms) => !Number.isNaN(ms))
      .sort((a, b) => a - b);
    const clients = playing.clients.length;
    const quantile = (share: number) => back[Math.ceil(share * clients) - 1] ?? Number.NaN;
    await sleep(3000); // play on after the restart
    await playing.stopPlaying();
    return {
      rooms,
      clients,
      back95Ms: quantile(0.95),
      back100Ms: quantile(1),
      downMs: listening - stopping,
      ...(await playing.verify(server.url)),
    };
  } finally {
    playing?.close();
    await server.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
