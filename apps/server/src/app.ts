/** buildApp: the whole server wired together, ready to listen; it never listens itself. */
import { randomInt } from 'node:crypto';
import type { Socket } from 'node:net';
import { join, resolve } from 'node:path';
import type { RoomEvent } from '@bagh/protocol';
import { SIDES } from '@bagh/rules';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { type Logger, pino } from 'pino';
import { Server } from 'socket.io';
import { BotPool } from './bots/pool.js';
import { clusterMembers, connectRedisCluster, type RedisCluster } from './cluster/redis.js';
import { SharedRoomManager } from './cluster/shared-rooms.js';
import { type Config, ConfigError, clusterProblem } from './config.js';
import { apiRoutes } from './http/api.js';
import { installErrorHandler } from './http/errors.js';
import { gamesRoutes } from './http/games.js';
import { serveMetrics } from './http/metrics.js';
import { tablebaseRoutes } from './http/tablebase.js';
import { webRoutes } from './http/web.js';
import { type AddressOf, clientAddress } from './limits/address.js';
import { BotGames } from './limits/bot-games.js';
import { Budget, type BudgetSpec } from './limits/budget.js';
import { RoomLimits } from './limits/rooms.js';
import { SocketCap } from './limits/sockets.js';
import { createMetrics, type Metrics } from './metrics.js';
import { RoomManager } from './rooms/manager.js';
import { chatAudience } from './rooms/snapshot.js';
import type { PresenceCounts } from './rooms/state.js';
import { attachSocketHandlers, type BaghServer } from './socket/handlers.js';
import type { RateLimit } from './socket/token-bucket.js';
import { guardStorage } from './storage/guarded.js';
import { openStore } from './storage/open.js';
import type { RoomStorage } from './storage/types.js';

/**
 * How long Socket.IO keeps every broadcast for a dropped connection to recover (one node only:
 * the sharded Redis adapter has no recovery). The adapter holds all packets of that window in
 * memory, so it is short: a client away longer, or on several nodes, re-joins with `since` and
 * gets the events it missed (or a fresh snapshot) from the room instead.
 */
const RECOVERY_MS = 30_000;

/**
 * An empty room leaves memory after this long without commands (it reloads from storage on
 * demand). Short, because finished games empty fast and each keeps its recent events.
 */
const ROOM_IDLE_MS = 60_000;

export interface AppOptions {
  /** A ready logger (default: pino at LOG_LEVEL to stdout). */
  readonly logger?: Logger;
  /** The room store (default: PostgreSQL at DATABASE_URL, else SQLite at DATA_DIR/bagh.sqlite). buildApp closes it on close. */
  readonly storage?: RoomStorage;
  /** Room creations per address per minute (default ROOMS_PER_ADDRESS_PER_MINUTE). */
  readonly roomCreationPerMinute?: number;
  /** Per-socket event budget (default 20/s, bursts of 100). */
  readonly socketRateLimit?: RateLimit;
  /** Events kept per room for `since` replays (default 32). */
  readonly historySize?: number;
  /** An empty room leaves memory after this long idle (default 1 min). */
  readonly roomIdleMs?: number;
  /** How long Socket.IO keeps a dropped connection's state for recovery (default 30 s; one node only). */
  readonly recoveryMs?: number;
  /** Largest socket message in bytes (default 16 KB). */
  readonly maxMessageBytes?: number;
  /** How long a player may be gone before the opponent may claim (default ABANDON_GRACE_MS). */
  readonly abandonGraceMs?: number;
  /** Chat budget of each seat and of each address's spectators (default 5 messages per 10 s). */
  readonly chatBudget?: BudgetSpec;
  /** Bot worker threads (default BOT_WORKERS). */
  readonly botWorkers?: number;
  /** How often timed games in play that failed to load are tried again (default TIMED_GAMES_CHECK_MS). */
  readonly timedGamesCheckMs?: number;
  /** The computer's least answer time in ms (default BOT_MIN_DELAY_MS). */
  readonly botMinDelayMs?: number;
  /** The longest a store call may take before the command is answered UNAVAILABLE (default 1 s). */
  readonly storeTimeoutMs?: number;
  /** How long a start waits for a store that cannot be opened yet (default 60 s). */
  readonly storeStartWaitMs?: number;
}

export interface App {
  readonly fastify: FastifyInstance;
  readonly io: BaghServer;
  readonly rooms: RoomManager;
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly bots: BotPool;
  /** The `/metrics` listener when METRICS_PORT is set (server.ts makes it listen); closes with the app. */
  readonly metricsServer: FastifyInstance | undefined;
  /**
   * Stops accepting, finishes (and acks) the commands in flight, closes the connections so that
   * clients reconnect by themselves, flushes storage. A stop records no player as gone.
   */
  readonly close: () => Promise<void>;
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<App> {
  const log = options.logger ?? pino({ level: config.LOG_LEVEL, base: { service: 'bagh-server' } });
  // loadConfig refuses this too; a config made in code (tests, benches) gets here unchecked.
  const problem = clusterProblem(config);
  if (problem !== null) throw new ConfigError(problem);
  const store = options.storage ?? (await openStore(config, log, options.storeStartWaitMs));
  // REDIS_URL (with DATABASE_URL): broadcasts, presence and budgets across nodes through Redis.
  let cluster: RedisCluster | undefined;
  try {
    cluster = config.REDIS_URL ? await connectRedisCluster(config.REDIS_URL, log) : undefined;
  } catch (error) {
    await store.close();
    throw error;
  }
  // SQLite (opened here without DATABASE_URL) answers within the call: its calls take no timer.
  const storeTimeoutMs =
    options.storeTimeoutMs ?? (options.storage || config.DATABASE_URL ? undefined : false);
  const storage = guardStorage(store, {
    log: log.child({ store: true }),
    ...(storeTimeoutMs !== undefined ? { timeoutMs: storeTimeoutMs } : {}),
  });
  const maxMessageBytes = options.maxMessageBytes ?? 16 * 1024;

  const fastify: FastifyInstance = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    bodyLimit: maxMessageBytes,
    // A long room id in a path reaches its route, whose schema refuses it with 400 (not a 404).
    routerOptions: { maxParamLength: 1000 },
    logController: new LogController({ disableRequestLogging: true }),
    connectionTimeout: 30_000,
    keepAliveTimeout: 10_000,
    requestTimeout: 30_000,
    // One proxy in front (the peer): request.ip is the address it saw, as clientAddress takes it.
    trustProxy: config.TRUST_PROXY ? (_address: string, hop: number) => hop === 0 : false,
  });

  // Every TCP connection, upgraded ones too (Node's own list drops those): a stop destroys the
  // ones still open after its deadline, so no peer that never answers a close can hold it up.
  const openSockets = new Set<Socket>();
  fastify.server.on('connection', (socket: Socket) => {
    openSockets.add(socket);
    socket.once('close', () => openSockets.delete(socket));
  });

  const addressOf: AddressOf = (remote, headers) => clientAddress(remote, headers, config.TRUST_PROXY);
  const socketCap = new SocketCap({
    max: config.MAX_SOCKETS_PER_ADDRESS,
    addressOf,
    onRefused: () => metrics.limited.inc({ limit: 'sockets' }),
  });
  const io: BaghServer = new Server(fastify.server, {
    allowRequest: socketCap.allowRequest,
    // A connection that never joins the namespace is dropped after this (Socket.IO's default: 45 s).
    connectTimeout: 10_000,
    // A connection gone silent (a network that drops packets without closing) is found within
    // 20 s, on both sides (the client times the server's pings), not Socket.IO's 45 s: the page
    // says it is reconnecting, and the opponent sees the player gone, that much sooner.
    pingInterval: 10_000,
    pingTimeout: 10_000,
    serveClient: false,
    maxHttpBufferSize: maxMessageBytes,
    perMessageDeflate: false,
    httpCompression: false,
    ...(cluster
      ? { adapter: cluster.adapter }
      : {
          connectionStateRecovery: {
            maxDisconnectionDuration: options.recoveryMs ?? RECOVERY_MS,
            skipMiddlewares: true,
          },
        }),
  });

  const bots = new BotPool({
    workers: options.botWorkers ?? config.BOT_WORKERS,
    log: log.child({ bots: true }),
  });
  let closing = false;
  let rooms: RoomManager | undefined;
  const metrics = createMetrics(() => rooms?.liveRooms ?? 0);
  // A store other nodes write too (PostgreSQL): a room read outside a command is checked against it.
  rooms = new (store.currentVersion ? SharedRoomManager : RoomManager)({
    storage,
    log,
    historySize: options.historySize ?? 32,
    idleMs: options.roomIdleMs ?? ROOM_IDLE_MS,
    broadcast: (event: RoomEvent) => io.to(event.roomId).emit('room:event', event),
    deliverChat: (message) =>
      io.to(chatAudience(message.channel, message.roomId)).emit('chat:message', message),
    abandonGraceMs: options.abandonGraceMs ?? config.ABANDON_GRACE_MS,
    bots: { pool: bots, minDelayMs: options.botMinDelayMs ?? config.BOT_MIN_DELAY_MS },
    // Several nodes: presence counts every node's sockets (each node answers for its own).
    ...(cluster
      ? {
          countRemote: (roomId: string) => (closing ? Promise.resolve(null) : countRemote(io, roomId)),
          clusterMembers: () => clusterMembers(io.of('/').adapter),
          presenceRecountMs: config.PRESENCE_RECOUNT_MS,
        }
      : {}),
    onCreated: () => metrics.roomsCreated.inc(),
    onConflict: () => metrics.versionConflicts.inc(),
    onEvent: (event) => {
      metrics.events.inc({ type: event.type });
      if (event.type === 'move') metrics.moves.inc();
      if (event.type === 'result' || (event.type === 'move' && event.snapshot.result))
        metrics.gamesFinished.inc({ reason: event.snapshot.result?.reason ?? 'unknown' });
    },
  });
  // Timed games in play are loaded at start (again while some fail to load; with a shared store,
  // also when a node leaves): their clocks run whether or not anyone comes back.
  rooms.watchClocks(
    options.timedGamesCheckMs ?? config.TIMED_GAMES_CHECK_MS,
    config.DATABASE_URL !== undefined,
  );
  // Limits count people (addresses, seats), not sockets; with Redis, budgets hold across nodes.
  const roomLimits = new RoomLimits(
    new Budget(
      'rooms',
      { points: options.roomCreationPerMinute ?? config.ROOMS_PER_ADDRESS_PER_MINUTE, durationMs: 60_000 },
      cluster?.client,
    ),
    new BotGames(config.BOT_GAMES_PER_ADDRESS, rooms.inPlay.bind(rooms)),
    (limit) => metrics.limited.inc({ limit }),
  );
  socketCap.attach(io);
  attachSocketHandlers(io, {
    rooms,
    log,
    metrics,
    rateLimit: options.socketRateLimit ?? { refillPerSecond: 20, burst: 100 },
    maxRoomsPerSocket: 16,
    addressOf,
    chatBudget: new Budget('chat', options.chatBudget ?? { points: 5, durationMs: 10_000 }, cluster?.client),
    roomLimits,
  });

  installErrorHandler(fastify);
  await fastify.register(helmet, {
    contentSecurityPolicy: { directives: cspDirectives(config.PUBLIC_URL) },
    // HSTS only where the site is served over https; on plain http it would pin nothing useful.
    strictTransportSecurity: config.PUBLIC_URL?.startsWith('https:') ? {} : false,
  });

  // A load balancer takes the node out on 503: answered within a second, whatever the store does.
  fastify.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (closing) return reply.code(503).send({ status: 'closing' });
    const problem = await storeProblem(storage, HEALTH_TIMEOUT_MS);
    if (problem !== null) return reply.code(503).send({ status: 'unavailable', reason: problem });
    return reply.send({ status: 'ok' });
  });
  const metricsServer = await serveMetrics(fastify, {
    metrics,
    log,
    port: config.METRICS_PORT,
    token: config.METRICS_TOKEN,
  });
  await apiRoutes(fastify, {
    rooms,
    publicUrl: config.PUBLIC_URL,
    addressOf,
    roomLimits,
    randomSide: () => SIDES[randomInt(SIDES.length)]!,
  });
  await gamesRoutes(fastify, {
    storage,
    addressOf,
    budget: new Budget(
      'games',
      { points: config.LISTINGS_PER_ADDRESS_PER_MINUTE, durationMs: 60_000 },
      cluster?.client,
    ),
    onLimited: () => metrics.limited.inc({ limit: 'games' }),
  });
  await tablebaseRoutes(fastify, {
    dir: config.TABLEBASE_DIR ?? join(config.DATA_DIR, 'tablebase'),
    log,
    onVerified: (dir) => bots.useTablebase(dir),
  });
  await webRoutes(fastify, { webDist: resolve(config.WEB_DIST) });
  await fastify.ready();

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      closing = true;
      // How long each step took, logged at the end: a slow stop says where it waited.
      const took: Record<string, number> = {};
      let since = performance.now();
      const step = async (name: string, work: () => Promise<unknown>): Promise<void> => {
        // Logged as a warning while it lasts: a stop cut short by its deadline still says where.
        const slow = setInterval(
          () =>
            log.warn({ step: name, ms: Math.round(performance.now() - since) }, 'shutdown: still waiting'),
          SLOW_CLOSE_STEP_MS,
        );
        slow.unref();
        try {
          await work();
        } finally {
          clearInterval(slow);
        }
        const now = performance.now();
        took[name] = Math.round(now - since);
        since = now;
      };
      // No new connection reaches a node that is going away (its open connections stay up).
      if (fastify.server.listening) fastify.server.close();
      // The commands in flight finish, are stored and acked; new ones are refused.
      await step('rooms', () => rooms.close());
      // Each connection's acks are flushed, then its transport is closed: the clients see
      // "transport close" and reconnect by themselves (a server-side disconnect they never retry).
      await step('connections', () => closeConnections(io, CLOSE_CONNECTIONS_MS));
      // io.close() also closes the HTTP server; "not running" (never listened) is fine.
      // It waits for every connection to end (keep-alive ones too): at most CLOSE_CONNECTIONS_MS.
      await step('io', () =>
        withDeadline(new Promise<void>((done) => void io.close(() => done())), CLOSE_CONNECTIONS_MS, () => {
          log.warn({ connections: openSockets.size }, 'shutdown: dropping the connections still open');
          for (const socket of openSockets) socket.destroy();
        }),
      );
      // With several nodes, the disconnects of the connections just closed.
      await step('disconnects', () => rooms.close());
      await step('http', () => fastify.close());
      await step('bots', () => bots.close());
      await step('store', () => storage.close());
      await step('cluster', async () => cluster?.close());
      log.info({ ms: took }, 'server closed');
    })();
    return closed;
  };

  return { fastify, io, rooms, metrics, log, bots, metricsServer, close };
}

/** How long a step of a stopping server may take before it is logged as a warning, and again after as long. */
const SLOW_CLOSE_STEP_MS = 2000;

/** How long a stopping server waits for its connections to flush their acks and close. */
const CLOSE_CONNECTIONS_MS = 3000;

/**
 * Closes every Engine.IO connection after its write buffer is sent (not a Socket.IO disconnect,
 * which clients take as final); waits at most `timeoutMs`, then io.close() drops what is left.
 */
async function closeConnections(io: BaghServer, timeoutMs: number): Promise<void> {
  const connections = new Set([...io.of('/').sockets.values()].map((socket) => socket.conn));
  const closed = [...connections].map(
    (connection) => new Promise<void>((done) => connection.once('close', () => done())),
  );
  for (const connection of connections) connection.close();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(closed),
    new Promise<void>((done) => {
      timer = setTimeout(done, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}

/** Waits for `work`; if it is not done within `ms`, calls `onLate` and goes on waiting. */
async function withDeadline(work: Promise<void>, ms: number, onLate: () => void): Promise<void> {
  const timer = setTimeout(onLate, ms);
  try {
    await work;
  } finally {
    clearTimeout(timer);
  }
}

/** How long /healthz waits for the store before it says the store does not answer. */
const HEALTH_TIMEOUT_MS = 800;

/** Why the store cannot serve now (its check failed or took too long), or null when it can. */
async function storeProblem(storage: RoomStorage, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the store did not answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      storage.check().then(
        () => null,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long a node waits for the others to say which of a room's sockets they hold. */
const COUNT_TIMEOUT_MS = 2000;

/**
 * The room's sockets on the other nodes, by place (`socket.data.rooms[roomId]`: a side, or null
 * for a spectator), through the adapter's fetchSockets; this node's own sockets are left out
 * (the room state has them). Null when a node did not answer in time.
 */
async function countRemote(io: BaghServer, roomId: string): Promise<PresenceCounts | null> {
  const local = io.of('/').sockets;
  const counts = { tiger: 0, goat: 0, spectators: 0 };
  let sockets: Awaited<ReturnType<BaghServer['fetchSockets']>>;
  let timer: NodeJS.Timeout | undefined;
  try {
    // The adapter asks Redis how many nodes listen before its own timeout starts: a frozen
    // Redis would keep the room's turn waiting, so the whole count is bounded here.
    sockets = await Promise.race([
      io.in(roomId).timeout(COUNT_TIMEOUT_MS).fetchSockets(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('presence count timed out')), COUNT_TIMEOUT_MS);
      }),
    ]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
  for (const socket of sockets) {
    if (local.has(socket.id)) continue;
    const place = socket.data?.rooms?.[roomId];
    if (place === undefined) continue;
    if (place === null) counts.spectators++;
    else counts[place]++;
  }
  return counts;
}

/** CSP for the Svelte app: own scripts and styles, inline styles, sockets to this origin. */
function cspDirectives(publicUrl: string | undefined): Record<string, string[] | null> {
  const connect = ["'self'"];
  if (publicUrl) {
    const url = new URL(publicUrl);
    connect.push(`${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`);
  }
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: connect,
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: publicUrl?.startsWith('https:') ? [] : null,
  };
}
