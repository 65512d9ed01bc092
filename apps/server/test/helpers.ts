/** Test support: a real server on 127.0.0.1:0 with a temp SQLite dir, and real Socket.IO clients. */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server as NetServer, Socket as NetSocket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AckError, CreateRoomReply, RoomEvent, Snapshot } from '@bagh/protocol';
import { pino } from 'pino';
import { type Socket as ClientSocket, io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type App, type AppOptions, buildApp } from '../src/app.js';
import { type Config, makeConfig } from '../src/config.js';

/** How long a test waits for what must happen: a safety bound for a loaded machine, not a claim of speed. */
export const PATIENCE_MS = 20_000;

export const tempDir = (prefix = 'bagh-server-'): string => mkdtempSync(join(tmpdir(), prefix));

export interface TestServer {
  readonly app: App;
  readonly url: string;
  readonly dataDir: string;
  close(): Promise<void>;
}

export interface ServerOptions {
  dataDir?: string;
  options?: AppOptions;
  config?: Partial<Config>;
  /** The port to listen on (default: any free one), e.g. a stopped server's to start it again. */
  port?: number;
}

export async function startServer(opts: ServerOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir();
  const config = makeConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dataDir, 'no-web-dist'),
    ...opts.config,
  });
  const app = await buildApp(config, opts.options);
  await app.fastify.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const address = app.fastify.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { app, url: `http://127.0.0.1:${address.port}`, dataDir, close: () => app.close() };
}

export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true });

export interface ClientOptions {
  /** Reconnect after a lost connection as a page does (quickly here); off by default. */
  reconnect?: boolean;
  /** Sent with the handshake (e.g. `x-forwarded-for`, to come from another address). */
  headers?: Record<string, string>;
  /** Sent with the handshake as a page's socket does (`{ room }`: routed to the room's node). */
  query?: Record<string, string>;
}

/** A client that records every room event it receives. */
export class Client {
  readonly socket: ClientSocket;
  readonly events: RoomEvent[] = [];
  readonly raw: string[] = [];
  #waiters: (() => void)[] = [];

  constructor(url: string, { reconnect = false, headers, query }: ClientOptions = {}) {
    this.socket = io(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: reconnect,
      reconnectionDelay: 100,
      reconnectionDelayMax: 1000,
      ...(headers ? { extraHeaders: headers } : {}),
      ...(query ? { query } : {}),
    });
    this.socket.on('room:event', (event: RoomEvent) => {
      this.events.push(event);
      this.raw.push(JSON.stringify(event));
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  static async connect(url: string, options?: ClientOptions): Promise<Client> {
    const client = new Client(url, options);
    await new Promise<void>((resolve, reject) => {
      client.socket.once('connect', () => resolve());
      client.socket.once('connect_error', reject);
    });
    return client;
  }

  // biome-ignore lint/suspicious/noExplicitAny: acks are checked by each test
  request(event: string, payload: unknown): Promise<any> {
    return this.socket.timeout(5000).emitWithAck(event, payload);
  }

  /** Waits until an event matching `predicate` has been received. */
  async waitFor(predicate: (event: RoomEvent) => boolean, timeoutMs = PATIENCE_MS): Promise<RoomEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a room event');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitForVersion(version: number, timeoutMs?: number): Promise<RoomEvent> {
    return this.waitFor((event) => event.version >= version, timeoutMs);
  }

  close(): void {
    this.socket.disconnect();
  }
}

export async function createRoom(url: string, body: unknown): Promise<CreateRoomReply> {
  const response = await fetch(`${url}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`create room: ${response.status} ${await response.text()}`);
  return (await response.json()) as CreateRoomReply;
}

export async function getSnapshot(url: string, roomId: string): Promise<Snapshot> {
  const response = await fetch(`${url}/api/rooms/${roomId}`);
  if (response.status !== 200) throw new Error(`get room: ${response.status}`);
  return (await response.json()) as Snapshot;
}

export function expectError(ack: unknown, code: string): AckError {
  const reply = ack as AckError;
  if (reply.ok !== false || reply.error.code !== code) {
    throw new Error(`expected ${code}, got ${JSON.stringify(ack)}`);
  }
  return reply;
}

/** A line a `recordingLogger` wrote, as pino wrote it. */
export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly err?: { readonly code?: string };
}

/** A pino logger at `level` whose lines the test reads (parsed, in order). */
export function recordingLogger(level: pino.Level = 'info'): { logger: pino.Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One server for the whole test file: started before its first test, closed (its data removed) after the last. */
export function sharedServer(options?: AppOptions): { readonly url: string } {
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startServer(options ? { options } : {});
  });
  afterAll(async () => {
    if (!started) return;
    await started.close();
    removeDir(started.dataDir);
  });
  return {
    get url() {
      if (!started) throw new Error('the shared server has not started');
      return started.url;
    },
  };
}

type Step = () => Promise<void> | void;

/** A Bagh Chal room created with the goat side: the creator holds the goat, `tiger` has claimed the tiger. */
export interface Seated {
  readonly created: CreateRoomReply;
  readonly roomId: string;
  readonly goat: Client;
  readonly tiger: Client;
  // biome-ignore lint/suspicious/noExplicitAny: acks are checked by each test
  readonly joined: any;
  // biome-ignore lint/suspicious/noExplicitAny: acks are checked by each test
  readonly claimed: any;
}

/** `Seated`, plus a spectator; the seats and the spectator checked, both seat tokens at hand. */
export interface Table extends Seated {
  readonly watcher: Client;
  readonly tokens: { readonly goat: string; readonly tiger: string };
}

export interface PerTest {
  /** Runs `step` after the current test; the steps run last first. */
  defer(step: Step): void;
  /** A temporary data directory, removed after the test. */
  dataDir(): string;
  /** A server, closed after the test (and its data directory removed, when it made its own). */
  server(opts?: ServerOptions): Promise<TestServer>;
  /** A connected client, closed after the test. */
  client(url: string, options?: ClientOptions): Promise<Client>;
  /** A client on each of `urls`, connected one after the other. */
  clients<const U extends readonly string[]>(...urls: U): Promise<{ -readonly [K in keyof U]: Client }>;
  /**
   * A room on `url` (`body` added to the goat-side Bagh Chal request) with both seats taken, each
   * player's client on `url` or on the node `on` names for it.
   */
  seat(
    url: string,
    body?: Record<string, unknown>,
    on?: { readonly goat?: string; readonly tiger?: string },
  ): Promise<Seated>;
  /** `seat`, then a spectator joins; checks the roles and the claim. */
  table(url: string, body?: Record<string, unknown>): Promise<Table>;
}

/** What a test makes and must undo: call once at the top of a test file (it registers an afterEach). */
export function perTest(): PerTest {
  const steps: Step[] = [];
  afterEach(async () => {
    for (const step of steps.splice(0).reverse()) await step();
  });
  const defer = (step: Step): void => {
    steps.push(step);
  };
  const client = async (url: string, options?: ClientOptions): Promise<Client> => {
    const c = await Client.connect(url, options);
    defer(() => c.close());
    return c;
  };
  const seat: PerTest['seat'] = async (url, body = {}, on = {}) => {
    const created = await createRoom(url, { variant: 'bagh-chal', side: 'goat', ...body });
    const { roomId } = created;
    const goat = await client(on.goat ?? url);
    const tiger = await client(on.tiger ?? url);
    const joined = await goat.request('room:join', { roomId, seatToken: created.seatToken });
    const claimed = await tiger.request('seat:claim', { roomId, side: 'tiger' });
    return { created, roomId, goat, tiger, joined, claimed };
  };
  return {
    defer,
    dataDir() {
      const dir = tempDir();
      defer(() => removeDir(dir));
      return dir;
    },
    async server(opts = {}) {
      const started = await startServer(opts);
      if (opts.dataDir === undefined) defer(() => removeDir(started.dataDir));
      defer(() => started.close());
      return started;
    },
    client,
    async clients<const U extends readonly string[]>(...urls: U) {
      const connected: Client[] = [];
      for (const url of urls) connected.push(await client(url));
      return connected as { -readonly [K in keyof U]: Client };
    },
    seat,
    async table(url, body = {}) {
      const seated = await seat(url, body);
      const watcher = await client(url);
      expect(seated.joined).toMatchObject({ role: 'goat' });
      expect(seated.claimed.ok).toBe(true);
      expect(await watcher.request('room:join', { roomId: seated.roomId })).toMatchObject({
        role: 'spectator',
      });
      const tokens = { goat: seated.created.seatToken, tiger: seated.claimed.seatToken as string };
      return { ...seated, watcher, tokens };
    },
  };
}

/** Plays `moves` from ply `from`, goat and tiger alternating (Bagh Chal: goats first); each must be acked ok. */
export async function playMoves(
  t: { readonly roomId: string; readonly goat: Client; readonly tiger: Client },
  moves: readonly string[],
  from = 0,
): Promise<number> {
  let version = 0;
  for (const [i, move] of moves.entries()) {
    const ply = from + i;
    const player = ply % 2 === 0 ? t.goat : t.tiger;
    const ack = await player.request('move', { roomId: t.roomId, move, ply });
    expect(ack, `${move} at ${ply}`).toMatchObject({ ok: true });
    version = ack.version;
  }
  return version;
}

/** The texts of the moves `client` has seen broadcast. */
export const movesSeen = (client: Client): (string | undefined)[] =>
  client.events.filter((e) => e.type === 'move').map((e) => e.move);

/** Polls `condition` every 20 ms until it holds. */
export async function waitUntil(condition: () => boolean, timeoutMs = PATIENCE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

/**
 * Listens with a test's TCP proxy on a free loopback port; after the test, closes it and ends the
 * connections in `open` (a proxy's, which would keep `close` waiting). Resolves with the port.
 */
export async function listenForTest(
  fixture: PerTest,
  server: NetServer,
  open: Set<NetSocket>,
): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture.defer(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  );
  return (server.address() as { port: number }).port;
}
