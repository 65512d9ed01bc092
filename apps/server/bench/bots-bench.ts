/**
 * `pnpm bench:bots`: how long a fresh beginner room waits for the computer's first move, alone
 * (the baseline) and with BENCH_ROOMS rooms against max waiting for the same bot workers (their
 * players connected), as a ratio against the baseline of the same run; first, how soon a cancelled
 * max search frees its worker, beside a whole one. Numbers, not pass/fail. One server in this
 * process, real sockets; the least answer delay is the default's.
 *
 *   BENCH_ROOMS=25 BENCH_SAMPLES=5 BENCH_WORKERS=1 pnpm bench:bots   (or --rooms= --samples= --workers=)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RoomEvent } from '@bagh/protocol';
import { pino } from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { type App, buildApp } from '#server/app.js';
import { BotPool } from '#server/bots/pool.js';
import { makeConfig } from '#server/config.js';
import { benchMain, out, setting, sleep } from './shared.js';

const ms = (value: number) => `${value.toFixed(0)} ms`;
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function client(url: string): Promise<Socket> {
  const socket = connect(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

async function joinRoom(socket: Socket, roomId: string, seatToken: string): Promise<void> {
  const ack = await socket.timeout(10_000).emitWithAck('room:join', { roomId, seatToken });
  if (!ack.ok) throw new Error(`join ${roomId}: ${JSON.stringify(ack)}`);
}

/** A room against the computer at `level`, which opens (it holds the goats). */
const botRoom = (app: App, level: 'beginner' | 'max') =>
  app.rooms.create({ variant: 'bagh-chal', options: {}, side: 'tiger', bot: level });

/** From the player's join to the computer's first move in a fresh beginner room (ms). */
async function firstMove(app: App, url: string): Promise<number> {
  const { room, seatToken } = await botRoom(app, 'beginner');
  const socket = await client(url);
  try {
    const moved = new Promise<void>((resolve) =>
      socket.on('room:event', (event: RoomEvent) => {
        if (event.type === 'move' && event.roomId === room.id) resolve();
      }),
    );
    const started = performance.now();
    await joinRoom(socket, room.id, seatToken);
    await moved;
    return performance.now() - started;
  } finally {
    socket.disconnect();
  }
}

async function samples(app: App, url: string, count: number, note: () => string): Promise<number[]> {
  const taken: number[] = [];
  for (let i = 0; i < count; i++) {
    taken.push(await firstMove(app, url));
    out(`  sample ${i + 1}: ${ms(taken.at(-1)!)}  (${note()})`);
  }
  return taken;
}

/** The first-move latencies, alone and beside `rooms` max rooms; `whole`: a max search here (ms). */
async function latency(rooms: number, count: number, workers: number, whole: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bagh-bench-bots-'));
  const app = await buildApp(
    makeConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_DIST: join(dir, 'none') }),
    {
      botWorkers: workers,
    },
  );
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = app.fastify.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  const sockets: Socket[] = [];
  const queue = () => `searching ${app.bots.busy}, queued ${app.bots.queued}`;
  try {
    await firstMove(app, url); // the workers have loaded the engine and its endgame table
    out('a fresh beginner room alone (baseline):');
    const alone = await samples(app, url, count, queue);

    for (let i = 0; i < Math.ceil(rooms / 10); i++) sockets.push(await client(url));
    for (let i = 0; i < rooms; i++) {
      const { room, seatToken } = await botRoom(app, 'max');
      await joinRoom(sockets[i % sockets.length]!, room.id, seatToken);
    }
    // Each join is acked after its room asked the pool: all of them are searching or queued now.
    out(`the same with ${rooms} max rooms waiting for the worker(s) (their players connected):`);
    const loaded = await samples(app, url, count, queue);

    const base = median(alone);
    const behind = median(loaded);
    out(
      `first move, median of ${count}: alone ${ms(base)}, with ${rooms} max rooms ${ms(behind)} ` +
        `(ratio ${(behind / base).toFixed(2)}×; worst ${ms(Math.max(...loaded))}); behind them all it would ` +
        `wait about ${ms((rooms / workers) * whole)} (${rooms} × a whole max search / ${workers} worker(s))`,
    );
  } finally {
    for (const socket of sockets) socket.disconnect();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How soon a cancelled max search frees its worker, beside a whole max search; returns the latter (ms). */
async function cancellation(): Promise<number> {
  const pool = new BotPool({ workers: 1, log: pino({ level: 'silent' }) });
  const request = (moves: string[]) =>
    ({ variant: 'bagh-chal', options: {}, moves, level: 'max', seed: 1 }) as const;
  try {
    await pool.move({ ...request([]), level: 'beginner' });
    let started = performance.now();
    await pool.move(request(['G@c3']));
    const whole = performance.now() - started;
    const cancel = new AbortController();
    const search = pool.move(request(['G@c3', 'a1-b2']), { signal: cancel.signal }).catch(() => null);
    await sleep(100);
    started = performance.now();
    cancel.abort();
    await search;
    while (pool.busy > 0) await sleep(1);
    out(
      `a max search cancelled 100 ms in frees its worker in ${(performance.now() - started).toFixed(1)} ms ` +
        `(a whole one: ${ms(whole)})`,
    );
    return whole;
  } finally {
    await pool.close();
  }
}

benchMain(async () => {
  const rooms = setting('rooms', 'BENCH_ROOMS', 25);
  const count = setting('samples', 'BENCH_SAMPLES', 5);
  const workers = setting('workers', 'BENCH_WORKERS', 1);
  out(
    `bench: the computer's first move in a beginner room, alone and beside ${rooms} max rooms; ${workers} bot worker(s)`,
  );
  const whole = await cancellation();
  await latency(rooms, count, workers, whole);
});
