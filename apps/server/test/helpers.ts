/** Test support: a real server on 127.0.0.1:0 with a temp SQLite dir, and real Socket.IO clients. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AckError, CreateRoomReply, RoomEvent, Snapshot } from '@bagh/protocol';
import { type Socket as ClientSocket, io } from 'socket.io-client';
import { type App, type AppOptions, buildApp } from '../src/app.js';
import { makeConfig } from '../src/config.js';

export const tempDir = (prefix = 'bagh-server-'): string => mkdtempSync(join(tmpdir(), prefix));

export interface TestServer {
  readonly app: App;
  readonly url: string;
  readonly dataDir: string;
  close(): Promise<void>;
}

export async function startServer(
  opts: { dataDir?: string; options?: AppOptions } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir();
  const config = makeConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dataDir, 'no-web-dist'),
  });
  const app = await buildApp(config, opts.options);
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = app.fastify.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { app, url: `http://127.0.0.1:${address.port}`, dataDir, close: () => app.close() };
}

export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true });

/** A client that records every room event it receives. */
export class Client {
  readonly socket: ClientSocket;
  readonly events: RoomEvent[] = [];
  readonly raw: string[] = [];
  #waiters: (() => void)[] = [];

  constructor(url: string) {
    this.socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    this.socket.on('room:event', (event: RoomEvent) => {
      this.events.push(event);
      this.raw.push(JSON.stringify(event));
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  static async connect(url: string): Promise<Client> {
    const client = new Client(url);
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
  async waitFor(predicate: (event: RoomEvent) => boolean, timeoutMs = 5000): Promise<RoomEvent> {
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
