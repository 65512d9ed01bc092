/**
 * What the benchmarks share: servers run in child processes (so their CPU time and RSS are their
 * own), the load of N rooms (2 players + 1 spectator each, random legal games over loopback
 * websockets) against Bagh or against a bare Socket.IO relay, and the figures printed.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateRoomReply, RoomEvent } from '@bagh/protocol';
import { createGame, type Game, legalMoves, makeMove, playMoveText, type Side } from '@bagh/rules';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { buildApp } from '#server/app.js';
import { makeConfig } from '#server/config.js';
import { childrenOf, type LocalPostgres, startLocalPostgres } from '../support/local-postgres.js';
import { type LocalRedis, startLocalRedis } from '../support/local-redis.js';

export type Target = 'bagh' | 'relay';
export interface Stats {
  readonly cpuMicros: number;
  /** The part of cpuMicros spent in the kernel (system time). */
  readonly systemMicros: number;
  readonly rss: number;
}
type ChildMessage = { type: 'ready'; port: number } | ({ type: 'stats' } & Stats);

export const out = (line: string) => process.stdout.write(`${line}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A number from `--name=` or the environment variable, else the fallback; must be > 0 (or ≥ 0). */
export function setting(name: string, env: string, fallback: number, allowZero = false): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const raw = arg ? arg.slice(name.length + 3) : process.env[env];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero)) {
    throw new Error(`${name} must be a ${allowZero ? 'number ≥ 0' : 'positive number'}, got ${raw}`);
  }
  return value;
}

// --- the servers, each in a child process --------------------------------------------------------

/** In a child forked by `ServerProcess`: serves the target and answers stats/stop; else false. */
export async function serveIfChild(): Promise<boolean> {
  const serveArg = process.argv.find((a) => a.startsWith('--serve='));
  if (!serveArg) return false;
  const target = serveArg.slice('--serve='.length) as Target;
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  await serve(target, arg('redis'), arg('database'));
  return true;
}

async function serve(target: Target, redisUrl?: string, databaseUrl?: string): Promise<void> {
  const send = (message: ChildMessage) => process.send?.(message);
  let stop: () => Promise<void>;
  let port: number;
  if (target === 'bagh') {
    const dir = mkdtempSync(join(tmpdir(), 'bagh-bench-'));
    const app = await buildApp(
      makeConfig({
        DATA_DIR: dir,
        LOG_LEVEL: 'silent',
        WEB_DIST: join(dir, 'none'),
        ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        // Every bench client comes from one address.
        MAX_SOCKETS_PER_ADDRESS: 1_000_000,
      }),
      { roomCreationPerMinute: 1_000_000_000 },
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
  const profiler = await segmentProfiler(process.env.BENCH_CPU_PROF);
  process.on('message', (message: { type: string }) => {
    if (message.type === 'stats') {
      const cpu = process.cpuUsage();
      send({
        type: 'stats',
        cpuMicros: cpu.user + cpu.system,
        systemMicros: cpu.system,
        rss: process.memoryUsage().rss,
      });
      void profiler?.();
    } else if (message.type === 'stop') {
      void stop().finally(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port });
}

/**
 * BENCH_CPU_PROF=<dir>: a V8 CPU profile of each server between two stats samples, written as
 * `<target pid>-<n>.cpuprofile` (n = 2 is the measured run: 1 is the set-up of the load), so the
 * profile holds the moves and not the start-up. Returns what to call at each sample.
 */
async function segmentProfiler(dir: string | undefined): Promise<(() => Promise<void>) | undefined> {
  if (!dir) return undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  let segment = 0;
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(dir, `${process.pid}-${segment++}.cpuprofile`), JSON.stringify(profile));
    await session.post('Profiler.start');
  };
}

/** A server in a child process: the running bench script forked with `--serve=<target>`. */
export class ServerProcess {
  readonly #child: ChildProcess;
  readonly #waiting: ((message: ChildMessage) => void)[] = [];

  constructor(target: Target, options: { redisUrl?: string; databaseUrl?: string } = {}) {
    const args = [
      `--serve=${target}`,
      ...(options.redisUrl ? [`--redis=${options.redisUrl}`] : []),
      ...(options.databaseUrl ? [`--database=${options.databaseUrl}`] : []),
    ];
    // BENCH_SERVER_FLAGS: node/V8 flags for the servers only (e.g. GC settings to compare).
    const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter((flag) => flag !== '');
    this.#child = fork(process.argv[1]!, args, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [...process.execArgv, ...flags],
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
      if (this.#child.exitCode !== null) return resolve();
      const timer = setTimeout(() => this.#child.kill('SIGKILL'), 10_000);
      this.#child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.#child.send({ type: 'stop' });
    });
  }
}

export type Store = 'sqlite' | 'postgres';

/** A run's name: "1 node", "1 node on PostgreSQL", "2 nodes". */
export const labelOf = (nodes: number, store: Store) =>
  nodes > 1 ? `${nodes} nodes` : store === 'sqlite' ? '1 node' : '1 node on PostgreSQL';

/** Node processes of Bagh with what they need: Redis for several nodes, PostgreSQL when asked. */
export interface Cluster {
  readonly servers: readonly ServerProcess[];
  readonly redis: LocalRedis | undefined;
  readonly postgres: LocalPostgres | undefined;
  stop(): Promise<void>;
}

export async function startCluster(nodes: number, store: Store): Promise<Cluster> {
  const redis = nodes > 1 ? await startLocalRedis() : undefined;
  const postgres = store === 'postgres' ? await startLocalPostgres() : undefined;
  const servers = Array.from(
    { length: nodes },
    () =>
      new ServerProcess('bagh', {
        ...(redis ? { redisUrl: redis.url } : {}),
        ...(postgres ? { databaseUrl: postgres.url } : {}),
      }),
  );
  return {
    servers,
    redis,
    postgres,
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
      await redis?.stop();
      await postgres?.stop();
    },
  };
}

/**
 * CPU time (user + system, µs) of another process, from /proc (Linux); with `reaped`, also that
 * of its children that exited and were waited for. NaN where unreadable.
 */
export function processCpuMicros(pid: number, reaped = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime; cutime, cstime
    const ticks = [11, 12, ...(reaped ? [13, 14] : [])].reduce((sum, i) => sum + Number(fields[i]), 0);
    return (ticks / 100) * 1e6; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (µs) of a process and its children (postgres: the postmaster and its backends), those
 * alive now and those already exited (a backend that ends between two samples still counts).
 */
export function processTreeCpuMicros(pid: number): number {
  // A child gone since it was listed: its time moves to the parent's once reaped (0 meanwhile).
  const child = (each: number) => processCpuMicros(each) || 0;
  return childrenOf(pid).reduce((sum, each) => sum + child(each), processCpuMicros(pid, true));
}

// --- the load ------------------------------------------------------------------------------------

export interface Measure {
  moves: number;
  latencies: number[];
  errors: number;
  /** The errors by the code the server answered (or what failed on the client's side). */
  errorCodes: Record<string, number>;
  games: number;
}
export const newMeasure = (): Measure => ({ moves: 0, latencies: [], errors: 0, errorCodes: {}, games: 0 });

/** How long a room may wait for its last move's answer and broadcast before it counts as stalled. */
const STALLED_MS = 3000;

function countError(measure: Measure, code: string): void {
  measure.errors++;
  measure.errorCodes[code] = (measure.errorCodes[code] ?? 0) + 1;
}

export interface Load {
  /** Starts play; moves are counted into `measure` from then on. */
  start(measure: Measure, running: () => boolean): void;
  close(): void;
}

export interface LoadOptions {
  /** Moves per second per room; 0 = each move as soon as the last one's broadcast arrives. */
  readonly ratePerRoom: number;
  /** Sockets opened at once while setting up. */
  readonly batch?: number;
  /** Bagh with several nodes: each room's players and spectator on one node (default: across two). */
  readonly sameNode?: boolean;
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

/**
 * `ask` again (20 times at most, 250 ms apart) while its answer says the server was too busy: a
 * loaded box can time a store call out while thousands of sockets set up at once (not measured).
 */
async function retried<T>(ask: () => Promise<T>, busy: (answer: T) => boolean): Promise<T> {
  let answer = await ask();
  for (let i = 0; i < 20 && busy(answer); i++) {
    await sleep(250);
    answer = await ask();
  }
  return answer;
}

function newGame(): Game {
  const created = createGame('bagh-chal');
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Calls `send` so that one room moves at most `ratePerRoom` times a second (jittered). */
function paced(ratePerRoom: number, lastSentAt: number, send: () => void): void {
  if (ratePerRoom === 0) {
    send();
    return;
  }
  const due = lastSentAt + (1000 / ratePerRoom) * (0.5 + Math.random());
  const wait = due - performance.now();
  if (wait <= 0) send();
  else setTimeout(send, wait);
}

/** Spreads the rooms' first moves over one period, so a paced run does not start with a burst. */
function staggered(ratePerRoom: number, first: () => void): void {
  if (ratePerRoom === 0) first();
  else setTimeout(first, Math.random() * (1000 / ratePerRoom));
}

/**
 * Bagh rooms. With several node URLs, room i's goat plays on node i, its tiger on node i+1 and
 * its spectator on node i+1 too (mod the count): every move crosses nodes (unless `sameNode`). The latency measured
 * is the spectator's, from the move sent to the move's room event received.
 */
export async function baghLoad(urls: readonly string[], rooms: number, options: LoadOptions): Promise<Load> {
  interface Slot {
    players: Record<Side, Socket>;
    spectator: Socket;
    createUrl: string;
    roomId: string;
    game: Game;
    sentAt: number;
    /** The last move's answer, 'accepted' or the error's code (none yet: null), and whether its broadcast reached the spectator. */
    answer: string | null;
    heard: boolean;
    /** Counts the room's scheduled moves: only the latest may be sent or played again. */
    turn: number;
  }
  let measure = newMeasure();
  let running = () => false;
  const ack = (reply: { ok: boolean; error?: { code: string } }) => {
    if (!reply.ok) countError(measure, reply.error?.code ?? 'unknown');
  };

  // One move in flight per room: a broadcast and a refusal that both ask for the next move
  // schedule it once (the later asking supersedes the earlier).
  const next = (slot: Slot) => {
    const turn = ++slot.turn;
    paced(options.ratePerRoom, slot.sentAt, () => {
      if (slot.turn === turn) move(slot);
    });
  };
  const move = (slot: Slot) => {
    const moves = legalMoves(slot.game);
    if (!running() || moves.length === 0) return;
    const side = slot.game.position.toMove;
    const move = makeMove(pick(moves));
    const turn = slot.turn;
    slot.sentAt = performance.now();
    slot.answer = null;
    slot.heard = false;
    const answered = (reply: { ok: boolean; error?: { code: string } }) => {
      slot.answer = reply.ok ? 'accepted' : (reply.error?.code ?? 'unknown');
      ack(reply);
      // A refused move is played again (another one), so one error does not end the room's play;
      // not after STALE (the game moved on unseen: its broadcast is awaited) or once superseded.
      if (!reply.ok && reply.error?.code !== 'STALE' && slot.turn === turn) next(slot);
    };
    slot.players[side].emit('move', { roomId: slot.roomId, move, ply: slot.game.moves.length }, answered);
  };

  const startGame = async (slot: Slot, first: boolean) => {
    if (!first) {
      for (const s of [slot.players.goat, slot.players.tiger, slot.spectator])
        s.emit('room:leave', { roomId: slot.roomId }, ack);
    }
    const response = await retried(
      () =>
        fetch(`${slot.createUrl}/api/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ variant: 'bagh-chal', side: 'goat' }),
        }),
      (r) => r.status === 503,
    );
    if (response.status !== 201) throw new Error(`create room: ${response.status}`);
    const created = (await response.json()) as CreateRoomReply;
    slot.roomId = created.roomId;
    slot.game = newGame();
    const unavailable = (r: { ok: boolean; error?: { code: string } }) => r.error?.code === 'UNAVAILABLE';
    const replies = await Promise.all([
      retried(
        () =>
          slot.players.goat.emitWithAck('room:join', {
            roomId: created.roomId,
            seatToken: created.seatToken,
          }),
        unavailable,
      ),
      retried(
        () => slot.players.tiger.emitWithAck('seat:claim', { roomId: created.roomId, side: 'tiger' }),
        unavailable,
      ),
      retried(() => slot.spectator.emitWithAck('room:join', { roomId: created.roomId }), unavailable),
    ]);
    if (replies.some((r: { ok: boolean }) => !r.ok)) throw new Error(`joining: ${JSON.stringify(replies)}`);
  };

  const slots = await inBatches(rooms, options.batch ?? 50, async (i) => {
    const here = urls[i % urls.length]!;
    const there = options.sameNode ? here : urls[(i + 1) % urls.length]!;
    const [goat, tiger, spectator] = await Promise.all([open(here), open(there), open(there)]);
    const slot: Slot = {
      players: { goat, tiger },
      spectator,
      createUrl: here,
      roomId: '',
      game: newGame(),
      sentAt: 0,
      answer: 'accepted',
      heard: true,
      turn: 0,
    };
    spectator.on('room:event', (event: RoomEvent) => {
      if (event.type !== 'move' || event.roomId !== slot.roomId || event.move === undefined) return;
      measure.latencies.push(performance.now() - slot.sentAt);
      measure.moves++;
      slot.heard = true;
      const played = playMoveText(slot.game, event.move);
      if (!played.ok) throw new Error(`bench: ${played.error.message}`);
      slot.game = played.value;
      if (event.snapshot.result) {
        measure.games++;
        if (running()) {
          startGame(slot, false).then(
            () => next(slot),
            // A new game cut short by the end of the run is not an error.
            () => {
              if (running()) countError(measure, 'new game');
            },
          );
        }
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
      for (const slot of slots) staggered(options.ratePerRoom, () => move(slot));
    },
    close() {
      // A room whose last move had no answer, or was accepted and not broadcast, for STALLED_MS
      // has stopped playing: counted as an error, not hidden in a lower moves/s.
      const now = performance.now();
      for (const slot of slots) {
        if (slot.heard || now - slot.sentAt < STALLED_MS) continue;
        // Refused as STALE and no newer move seen since: the room's game moved on unseen.
        if (slot.answer === 'STALE') countError(measure, 'stuck on STALE');
        else if (slot.answer === 'accepted') countError(measure, 'accepted, not broadcast');
        else if (slot.answer === null) countError(measure, 'no answer');
      }
      for (const slot of slots)
        for (const s of [slot.players.goat, slot.players.tiger, slot.spectator]) s.disconnect();
    },
  };
}

/** The bare relay: players send a 300-byte state, the server rebroadcasts it to the room. */
export async function relayLoad(url: string, rooms: number, options: LoadOptions): Promise<Load> {
  const STATE = 'x'.repeat(300);
  let measure = newMeasure();
  let running = () => false;
  const slots = await inBatches(rooms, options.batch ?? 50, async (i) => {
    const sockets = await Promise.all([open(url), open(url), open(url)]);
    const room = `room-${i}`;
    await Promise.all(sockets.map((s) => s.emitWithAck('join', room)));
    const slot = { sockets, room, ply: 0, sentAt: 0 };
    const next = () => paced(options.ratePerRoom, slot.sentAt, send);
    const send = () => {
      if (!running()) return;
      slot.sentAt = performance.now();
      sockets[slot.ply % 2]!.emit('move', { room, ply: slot.ply, state: STATE }, (reply: { ok: boolean }) => {
        if (!reply.ok) countError(measure, 'relay');
      });
    };
    sockets[2]!.on('state', () => {
      measure.latencies.push(performance.now() - slot.sentAt);
      measure.moves++;
      slot.ply++;
      next();
    });
    return { send, sockets };
  });
  return {
    start(m, isRunning) {
      measure = m;
      running = isRunning;
      for (const slot of slots) staggered(options.ratePerRoom, slot.send);
    },
    close() {
      for (const slot of slots) for (const s of slot.sockets) s.disconnect();
    },
  };
}

// --- one measured run ----------------------------------------------------------------------------

export interface Result {
  readonly label: string;
  readonly moves: number;
  readonly seconds: number;
  readonly cpuMicrosPerMove: number;
  /** The part of cpuMicrosPerMove spent in the kernel. */
  readonly systemMicrosPerMove: number;
  readonly p50: number;
  readonly p99: number;
  readonly rssPerConnection: number;
  readonly errors: number;
  readonly errorCodes: Readonly<Record<string, number>>;
  readonly games: number;
  /** CPU µs per move of each helper process not counted above (redis-server, postgres). */
  readonly helperCpuMicrosPerMove: Readonly<Record<string, number>>;
}

export interface RunSetup {
  readonly label: string;
  readonly rooms: number;
  readonly seconds: number;
  /** The server processes (started; their ports known) and the load to drive against them. */
  readonly servers: readonly ServerProcess[];
  readonly load: () => Promise<Load>;
  /** Total CPU µs so far of each helper process (e.g. redis-server), sampled before and after. */
  readonly helpers?: Readonly<Record<string, () => number>>;
}

/** Sets up the load, measures `seconds` of play, and reports the servers' CPU and RSS summed. */
export async function measureRun(setup: RunSetup): Promise<Result> {
  const sum = (stats: Stats[]) => ({
    cpuMicros: stats.reduce((s, x) => s + x.cpuMicros, 0),
    systemMicros: stats.reduce((s, x) => s + x.systemMicros, 0),
    rss: stats.reduce((s, x) => s + x.rss, 0),
  });
  const sample = async () => sum(await Promise.all(setup.servers.map((s) => s.stats())));
  const idle = await sample();
  const load = await setup.load();
  const measure = newMeasure();
  let running = true;
  load.start(measure, () => running);
  // BENCH_WARMUP=<s>: play unmeasured first, so each server's JIT compiles the moves' code before
  // the count starts (once per process: several nodes pay it several times).
  const warmup = setting('warmup', 'BENCH_WARMUP', 0, true);
  if (warmup > 0) await sleep(warmup * 1000);
  const before = await sample();
  // The count starts with the CPU sample: moves before it (the warm-up, the sample's round trip) are not counted.
  Object.assign(measure, newMeasure(), { latencies: measure.latencies });
  measure.latencies.length = 0;
  const helpers = Object.entries(setup.helpers ?? {});
  const helpersBefore = helpers.map(([, cpu]) => cpu());
  const started = performance.now();
  // Long runs (a soak) print the servers' RSS every minute: memory must stay flat.
  for (let left = setup.seconds; left > 0; left -= 60) {
    await sleep(Math.min(left, 60) * 1000);
    if (setup.seconds >= 120 && left > 60) {
      const minute = Math.round((setup.seconds - left + 60) / 60);
      out(`  ${setup.label} after ${minute} min: RSS ${((await sample()).rss / 2 ** 20).toFixed(1)} MiB`);
    }
  }
  running = false;
  const elapsed = (performance.now() - started) / 1000;
  await sleep(300); // let in-flight moves land
  const after = await sample();
  const helpersAfter = helpers.map(([, cpu]) => cpu());
  load.close();
  const sorted = measure.latencies.sort((a, b) => a - b);
  const quantile = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const moves = Math.max(1, measure.moves);
  return {
    label: setup.label,
    moves: measure.moves,
    seconds: elapsed,
    cpuMicrosPerMove: (after.cpuMicros - before.cpuMicros) / moves,
    systemMicrosPerMove: (after.systemMicros - before.systemMicros) / moves,
    p50: quantile(0.5),
    p99: quantile(0.99),
    rssPerConnection: (after.rss - idle.rss) / (setup.rooms * 3),
    errors: measure.errors,
    errorCodes: measure.errorCodes,
    games: measure.games,
    helperCpuMicrosPerMove: Object.fromEntries(
      helpers.map(([name], i) => [name, (helpersAfter[i]! - helpersBefore[i]!) / moves]),
    ),
  };
}

export function report(r: Result, width = 6): void {
  out(
    `${r.label.padEnd(width)} ${(r.moves / r.seconds).toFixed(0).padStart(8)} moves/s  ` +
      `${r.cpuMicrosPerMove.toFixed(1).padStart(7)} µs CPU/move (${r.systemMicrosPerMove.toFixed(0)} system)  ` +
      `p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  ` +
      `${(r.rssPerConnection / 1024).toFixed(1)} KiB RSS/connection  ` +
      `(${r.moves} moves, ${r.games} games finished, ${r.errors} errors` +
      (r.errors > 0 ? ` ${JSON.stringify(r.errorCodes)}` : '') +
      Object.entries(r.helperCpuMicrosPerMove)
        .map(([name, micros]) => `; + ${name} ${micros.toFixed(1)} µs/move`)
        .join('') +
      ')',
  );
}

/** Runs `main` unless this process is a forked server; exits when done. */
export function benchMain(main: () => Promise<void>): void {
  serveIfChild()
    .then(async (isChild) => {
      if (isChild) return;
      await main();
      process.exit(0);
    })
    .catch((error: unknown) => {
      process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}
