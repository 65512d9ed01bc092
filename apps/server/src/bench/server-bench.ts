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
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CreateRoomReply, RoomEvent } from '@bagh/protocol';
import { createGame, type Game, legalMoves, makeMove, playMoveText, type Side } from '@bagh/rules';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { buildApp } from '../app.js';
import { makeConfig } from '../config.js';

type Target = 'bagh' | 'relay';
interface Stats {
  readonly cpuMicros: number;
  readonly rss: number;
}
type ChildMessage = { type: 'ready'; port: number } | ({ type: 'stats' } & Stats);

const SELF = fileURLToPath(import.meta.url);
const out = (line: string) => process.stdout.write(`${line}\n`);

function setting(name: string, env: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const raw = arg ? arg.slice(name.length + 3) : process.env[env];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

// --- the servers, each in a child process --------------------------------------------------------

async function serve(target: Target): Promise<void> {
  const send = (message: ChildMessage) => process.send?.(message);
  let stop: () => Promise<void>;
  let port: number;
  if (target === 'bagh') {
    const dir = mkdtempSync(join(tmpdir(), 'bagh-bench-'));
    const app = await buildApp(
      makeConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_DIST: join(dir, 'none') }),
      {
        roomCreationPerMinute: 1_000_000_000,
      },
    );
    await app.fastify.listen({ port: 0, host: '127.0.0.1' });
    port = (app.fastify.server.address() as { port: number }).port;
    stop = async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const http = createServer();
    const io = new Server(http, {
      serveClient: false,
      perMessageDeflate: false,
      maxHttpBufferSize: 16 * 1024,
    });
    io.on('connection', (socket) => {
      socket.on('join', (room: string, ack: unknown) => {
        void socket.join(room);
        if (typeof ack === 'function') ack({ ok: true });
      });
      socket.on('move', (message: { room: string; ply: number; state: string }, ack: unknown) => {
        io.to(message.room).emit('state', message);
        if (typeof ack === 'function') ack({ ok: true, version: message.ply + 1 });
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    port = (http.address() as { port: number }).port;
    stop = () => new Promise<void>((resolve) => io.close(() => resolve()));
  }
  process.on('message', (message: { type: string }) => {
    if (message.type === 'stats') {
      const cpu = process.cpuUsage();
      send({ type: 'stats', cpuMicros: cpu.user + cpu.system, rss: process.memoryUsage().rss });
    } else if (message.type === 'stop') {
      void stop().finally(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port });
}

class Child {
  readonly #child: ChildProcess;
  readonly #waiting: ((message: ChildMessage) => void)[] = [];

  constructor(target: Target) {
    const profile = process.env.BENCH_CPU_PROF; // a directory: write a V8 CPU profile of each server
    this.#child = fork(SELF, [`--serve=${target}`], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
    });
    this.#child.on('message', (message: ChildMessage) => this.#waiting.shift()?.(message));
  }
  #next(): Promise<ChildMessage> {
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
  async port(): Promise<number> {
    const message = await this.#next();
    if (message.type !== 'ready') throw new Error('child did not start');
    return message.port;
  }
  async stats(): Promise<Stats> {
    const reply = this.#next();
    this.#child.send({ type: 'stats' });
    const message = await reply;
    if (message.type !== 'stats') throw new Error('unexpected message');
    return message;
  }
  stop(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#child.kill('SIGKILL'), 10_000);
      this.#child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.#child.send({ type: 'stop' });
    });
  }
}

// --- the load ------------------------------------------------------------------------------------

interface Measure {
  moves: number;
  latencies: number[];
  errors: number;
  games: number;
}

function open(url: string): Promise<Socket> {
  const socket = connect(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const all: T[] = [];
  for (let start = 0; start < count; start += size) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(size, count - start) }, (_, i) => make(start + i)),
    );
    all.push(...batch);
  }
  return all;
}

function newGame(): Game {
  const created = createGame('bagh-chal');
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Moves per second per room; 0 = each move as soon as the last one's broadcast arrives. */
let ratePerRoom = 0;
/** Calls `send` so that one room moves at most `ratePerRoom` times a second (jittered). */
function paced(lastSentAt: number, send: () => void): void {
  if (ratePerRoom === 0) {
    send();
    return;
  }
  const due = lastSentAt + (1000 / ratePerRoom) * (0.5 + Math.random());
  const wait = due - performance.now();
  if (wait <= 0) send();
  else setTimeout(send, wait);
}

interface Load {
  /** Starts play; moves are counted into `measure` from then on. */
  start(measure: Measure, running: () => boolean): void;
  close(): void;
}

async function baghLoad(url: string, rooms: number): Promise<Load> {
  interface Slot {
    players: Record<Side, Socket>;
    spectator: Socket;
    roomId: string;
    game: Game;
    sentAt: number;
  }
  let measure: Measure = { moves: 0, latencies: [], errors: 0, games: 0 };
  let running = () => false;
  const ack = (reply: { ok: boolean }) => {
    if (!reply.ok) measure.errors++;
  };

  const next = (slot: Slot) => paced(slot.sentAt, () => move(slot));
  const move = (slot: Slot) => {
    if (!running()) return;
    const side = slot.game.position.toMove;
    const move = makeMove(pick(legalMoves(slot.game)));
    slot.sentAt = performance.now();
    slot.players[side].emit('move', { roomId: slot.roomId, move, ply: slot.game.moves.length }, ack);
  };

  const startGame = async (slot: Slot, first: boolean) => {
    if (!first) {
      for (const s of [slot.players.goat, slot.players.tiger, slot.spectator])
        s.emit('room:leave', { roomId: slot.roomId }, ack);
    }
    const response = await fetch(`${url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variant: 'bagh-chal', side: 'goat' }),
    });
    if (response.status !== 201) throw new Error(`create room: ${response.status}`);
    const created = (await response.json()) as CreateRoomReply;
    slot.roomId = created.roomId;
    slot.game = newGame();
    const replies = await Promise.all([
      slot.players.goat.emitWithAck('room:join', { roomId: created.roomId, seatToken: created.seatToken }),
      slot.players.tiger.emitWithAck('seat:claim', { roomId: created.roomId, side: 'tiger' }),
      slot.spectator.emitWithAck('room:join', { roomId: created.roomId }),
    ]);
    if (replies.some((r: { ok: boolean }) => !r.ok)) throw new Error(`joining: ${JSON.stringify(replies)}`);
  };

  const slots = await inBatches(rooms, 50, async () => {
    const [goat, tiger, spectator] = await Promise.all([open(url), open(url), open(url)]);
    const slot: Slot = { players: { goat, tiger }, spectator, roomId: '', game: newGame(), sentAt: 0 };
    spectator.on('room:event', (event: RoomEvent) => {
      if (event.type !== 'move' || event.roomId !== slot.roomId || event.move === undefined) return;
      measure.latencies.push(performance.now() - slot.sentAt);
      measure.moves++;
      const played = playMoveText(slot.game, event.move);
      if (!played.ok) throw new Error(`bench: ${played.error.message}`);
      slot.game = played.value;
      if (event.snapshot.result) {
        measure.games++;
        if (running()) void startGame(slot, false).then(() => next(slot));
      } else {
        next(slot);
      }
    });
    await startGame(slot, true);
    return slot;
  });

  return {
    start(m, isRunning) {
      measure = m;
      running = isRunning;
      for (const slot of slots) next(slot);
    },
    close() {
      for (const slot of slots)
        for (const s of [slot.players.goat, slot.players.tiger, slot.spectator]) s.disconnect();
    },
  };
}

async function relayLoad(url: string, rooms: number): Promise<Load> {
  const STATE = 'x'.repeat(300);
  let measure: Measure = { moves: 0, latencies: [], errors: 0, games: 0 };
  let running = () => false;
  const slots = await inBatches(rooms, 50, async (i) => {
    const sockets = await Promise.all([open(url), open(url), open(url)]);
    const room = `room-${i}`;
    await Promise.all(sockets.map((s) => s.emitWithAck('join', room)));
    const slot = { sockets, room, ply: 0, sentAt: 0 };
    const next = () => paced(slot.sentAt, send);
    const send = () => {
      if (!running()) return;
      slot.sentAt = performance.now();
      sockets[slot.ply % 2]!.emit('move', { room, ply: slot.ply, state: STATE }, (reply: { ok: boolean }) => {
        if (!reply.ok) measure.errors++;
      });
    };
    sockets[2]!.on('state', () => {
      measure.latencies.push(performance.now() - slot.sentAt);
      measure.moves++;
      slot.ply++;
      next();
    });
    return { next, sockets };
  });
  return {
    start(m, isRunning) {
      measure = m;
      running = isRunning;
      for (const slot of slots) slot.next();
    },
    close() {
      for (const slot of slots) for (const s of slot.sockets) s.disconnect();
    },
  };
}

interface Result {
  readonly target: Target;
  readonly moves: number;
  readonly seconds: number;
  readonly cpuMicrosPerMove: number;
  readonly p50: number;
  readonly p99: number;
  readonly rssPerConnection: number;
  readonly errors: number;
  readonly games: number;
}

async function run(target: Target, rooms: number, seconds: number): Promise<Result> {
  const child = new Child(target);
  try {
    const port = await child.port();
    const url = `http://127.0.0.1:${port}`;
    const idle = await child.stats();
    const load = target === 'bagh' ? await baghLoad(url, rooms) : await relayLoad(url, rooms);
    const measure: Measure = { moves: 0, latencies: [], errors: 0, games: 0 };
    const before = await child.stats();
    const started = performance.now();
    let running = true;
    load.start(measure, () => running);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    running = false;
    const elapsed = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 300)); // let in-flight moves land
    const after = await child.stats();
    load.close();
    const sorted = measure.latencies.sort((a, b) => a - b);
    const quantile = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
    return {
      target,
      moves: measure.moves,
      seconds: elapsed,
      cpuMicrosPerMove: (after.cpuMicros - before.cpuMicros) / Math.max(1, measure.moves),
      p50: quantile(0.5),
      p99: quantile(0.99),
      rssPerConnection: (after.rss - idle.rss) / (rooms * 3),
      errors: measure.errors,
      games: measure.games,
    };
  } finally {
    await child.stop();
  }
}

function report(r: Result): void {
  out(
    `${r.target.padEnd(6)} ${(r.moves / r.seconds).toFixed(0).padStart(8)} moves/s  ` +
      `${r.cpuMicrosPerMove.toFixed(1).padStart(7)} µs CPU/move  ` +
      `p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  ` +
      `${(r.rssPerConnection / 1024).toFixed(1)} KiB RSS/connection  ` +
      `(${r.moves} moves${r.target === 'bagh' ? `, ${r.games} games finished` : ''}, ${r.errors} errors)`,
  );
}

async function main(): Promise<void> {
  const serveArg = process.argv.find((a) => a.startsWith('--serve='));
  if (serveArg) return serve(serveArg.slice('--serve='.length) as Target);
  const rooms = setting('rooms', 'BENCH_ROOMS', 1000);
  const seconds = setting('seconds', 'BENCH_SECONDS', 10);
  const rate = process.argv.find((a) => a.startsWith('--rate=')) ?? process.env.BENCH_RATE;
  ratePerRoom = rate === undefined ? 2 : Number(rate.replace('--rate=', ''));
  if (!Number.isFinite(ratePerRoom) || ratePerRoom < 0) throw new Error('rate must be a number ≥ 0');
  out(
    `bench: ${rooms} rooms × (2 players + 1 spectator), ${seconds} s per server, loopback websockets, ` +
      (ratePerRoom > 0 ? `≤ ${ratePerRoom} moves/s per room` : 'unpaced'),
  );
  const bagh = await run('bagh', rooms, seconds);
  report(bagh);
  const relay = await run('relay', rooms, seconds);
  report(relay);
  out(
    `ratio bagh/relay: CPU per move ${(bagh.cpuMicrosPerMove / relay.cpuMicrosPerMove).toFixed(2)}×, ` +
      `RSS per connection ${(bagh.rssPerConnection / relay.rssPerConnection).toFixed(2)}×, ` +
      `p99 latency ${(bagh.p99 / relay.p99).toFixed(2)}×, throughput ${(bagh.moves / bagh.seconds / (relay.moves / relay.seconds)).toFixed(2)}×`,
  );
}

main().then(
  () => {
    if (!process.argv.some((a) => a.startsWith('--serve='))) process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
