import type { RoomEvent, Snapshot } from '@bagh/protocol';
import { describe, expect, it } from 'vitest';
import { snapshotFixture } from '../test-fixtures.js';
import { GameConnection } from './connection.svelte.js';
import type { TokenStore } from './seats.js';

type Handler = (...args: never[]) => void;
type Ack = (err: Error | null, reply?: unknown) => void;

/** A socket.io-client stand-in: records emits, lets the test fire server events and acks. */
class FakeSocket {
  handlers = new Map<string, Set<Handler>>();
  emitted: { name: string; request: Record<string, unknown>; ack: Ack }[] = [];
  connected = false;
  on(name: string, h: Handler) {
    if (!this.handlers.has(name)) this.handlers.set(name, new Set());
    this.handlers.get(name)!.add(h);
    return this;
  }
  off(name: string, h: Handler) {
    this.handlers.get(name)?.delete(h);
    return this;
  }
  fire(name: string, ...args: unknown[]) {
    for (const h of this.handlers.get(name) ?? []) (h as (...a: unknown[]) => void)(...args);
  }
  connect() {
    this.connected = true;
    this.fire('connect');
  }
  disconnect() {
    this.connected = false;
    this.fire('disconnect');
  }
  timeout() {
    return {
      emit: (name: string, request: Record<string, unknown>, ack: Ack) => {
        this.emitted.push({ name, request, ack });
      },
    };
  }
  last(name: string) {
    return [...this.emitted].reverse().find((e) => e.name === name)!;
  }
}

function snap(version: number, moves: string[] = []): Snapshot {
  return snapshotFixture({
    version,
    moves,
    seats: { tiger: { taken: true, connected: true }, goat: { taken: false, connected: false } },
  });
}
const event = (version: number, moves: string[] = []): RoomEvent => ({
  roomId: 'room-abc',
  version,
  type: 'move',
  snapshot: snap(version, moves),
});

function setup(token?: string) {
  const socket = new FakeSocket();
  const saved = new Map<string, string>(token ? [['room-abc', token]] : []);
  const tokens: TokenStore = { get: (r) => saved.get(r), set: (r, t) => void saved.set(r, t) };
  const conn = new GameConnection('room-abc', { socket: socket as never, tokens });
  return { socket, conn, saved };
}

describe('GameConnection', () => {
  it('joins on connect with the stored seat token and takes the reply snapshot', () => {
    const { socket, conn } = setup('t'.repeat(24));
    conn.connect();
    expect(conn.status).toBe('online');
    const join = socket.last('room:join');
    expect(join.request).toEqual({ roomId: 'room-abc', seatToken: 't'.repeat(24) });
    join.ack(null, { ok: true, role: 'tiger', snapshot: snap(3) });
    expect(conn.role).toBe('tiger');
    expect(conn.version).toBe(3);
  });

  it('applies the next version, drops old ones, re-joins with since on a gap', () => {
    const { socket, conn } = setup();
    conn.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'spectator', snapshot: snap(3) });
    const before = conn.snapshot;
    socket.fire('room:event', event(3));
    expect(conn.snapshot).toBe(before);
    socket.fire('room:event', event(4, ['G@c3']));
    expect(conn.version).toBe(4);
    expect(conn.snapshot?.moves).toEqual(['G@c3']);
    socket.fire('room:event', event(6, ['G@c3', 'a1-b2', 'G@d4']));
    expect(conn.version).toBe(4);
    const rejoin = socket.last('room:join');
    expect(rejoin.request).toEqual({ roomId: 'room-abc', since: 4 });
    rejoin.ack(null, { ok: true, role: 'spectator', snapshot: snap(6), events: [event(5), event(6)] });
    expect(conn.version).toBe(6);
  });

  it('replaces the snapshot object, never merges', () => {
    const { socket, conn } = setup();
    conn.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'spectator', snapshot: snap(1, ['G@a2']) });
    const next = event(2);
    socket.fire('room:event', next);
    expect(conn.snapshot).toBe(next.snapshot);
    expect(conn.snapshot?.moves).toEqual([]);
  });

  it('re-joins with since after a reconnect', () => {
    const { socket, conn } = setup();
    conn.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'spectator', snapshot: snap(7) });
    socket.disconnect();
    expect(conn.status).toBe('offline');
    socket.connect();
    expect(socket.last('room:join').request).toEqual({ roomId: 'room-abc', since: 7 });
  });

  it('claim stores the seat token; move sends ply and surfaces ack errors', () => {
    const { socket, conn, saved } = setup();
    conn.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'spectator', snapshot: snap(2, ['G@c3']) });
    conn.claim('goat');
    expect(socket.last('seat:claim').request).toEqual({ roomId: 'room-abc', side: 'goat' });
    socket.last('seat:claim').ack(null, { ok: true, seatToken: 's'.repeat(24), snapshot: snap(3, ['G@c3']) });
    expect(saved.get('room-abc')).toBe('s'.repeat(24));
    expect(conn.role).toBe('goat');
    conn.move('a1-b2');
    expect(conn.pending).toBe(true);
    expect(socket.last('move').request).toEqual({ roomId: 'room-abc', move: 'a1-b2', ply: 1 });
    socket.last('move').ack(null, { ok: false, error: { code: 'NOT_YOUR_TURN', message: 'no' } });
    expect(conn.pending).toBe(false);
    expect(conn.lastError?.code).toBe('NOT_YOUR_TURN');
  });

  it('reports a timed-out ack and refuses moves while offline', () => {
    const { socket, conn } = setup();
    conn.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(0) });
    conn.move('c3');
    socket.last('move').ack(new Error('timeout'));
    expect(conn.lastError?.code).toBe('TIMEOUT');
    socket.disconnect();
    const sent = socket.emitted.length;
    conn.move('c3');
    expect(socket.emitted.length).toBe(sent);
    expect(conn.lastError?.code).toBe('OFFLINE');
  });
});
