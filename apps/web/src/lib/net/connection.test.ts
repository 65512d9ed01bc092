import type { RoomEvent, Snapshot } from '@bagh/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorText } from '../game/view.js';
import { snapshotFixture } from '../test-fixtures.js';
import { BACK_ONLINE_MS, GameConnection, RECONNECT, retryDelay } from './connection.svelte.js';
import type { TokenStore } from './seats.js';

type Handler = (...args: never[]) => void;
type Ack = (err: Error | null, reply?: unknown) => void;

/**
 * A socket.io-client stand-in: records emits, lets the test fire server events and acks, and
 * loses its connection the ways a real one does (`active`: Socket.IO itself will reconnect).
 */
class FakeSocket {
  handlers = new Map<string, Set<Handler>>();
  emitted: { name: string; request: Record<string, unknown>; ack: Ack }[] = [];
  connected = false;
  active = false;
  connects = 0;
  #unanswered = new Set<Ack>();
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
    this.connects++;
    this.active = true;
    this.connected = true;
    this.fire('connect');
  }
  disconnect() {
    this.active = false;
    this.#lose('io client disconnect');
  }
  /** The transport closed (a server restart, a network drop): Socket.IO retries by itself. */
  drop() {
    this.#lose('transport close');
  }
  /** The server ended the session: Socket.IO leaves the reconnect to the page. */
  serverDisconnect() {
    this.active = false;
    this.#lose('io server disconnect');
  }
  #lose(reason: string) {
    if (!this.connected) return;
    this.connected = false;
    this.fire('disconnect', reason);
    // As Socket.IO does: acks awaited on the lost connection fail at once.
    for (const ack of [...this.#unanswered]) ack(new Error('socket has been disconnected'));
  }
  timeout() {
    return {
      emit: (name: string, request: Record<string, unknown>, ack: Ack) => {
        const once: Ack = (err, reply) => {
          if (!this.#unanswered.delete(once)) return;
          ack(err, reply);
        };
        this.#unanswered.add(once);
        this.emitted.push({ name, request, ack: once });
      },
    };
  }
  last(name: string) {
    return [...this.emitted].reverse().find((e) => e.name === name)!;
  }
  count(name: string) {
    return this.emitted.filter((e) => e.name === name).length;
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

const opened: GameConnection[] = [];
afterEach(() => {
  for (const conn of opened.splice(0)) conn.close();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function setup(token?: string) {
  const socket = new FakeSocket();
  const saved = new Map<string, string>(token ? [['room-abc', token]] : []);
  const tokens: TokenStore = { get: (r) => saved.get(r), set: (r, t) => void saved.set(r, t) };
  const conn = new GameConnection('room-abc', { socket: socket as never, tokens });
  opened.push(conn);
  return { socket, conn, saved };
}

const TOKEN = 't'.repeat(24);

/** A goat player joined at `version` with `moves` played. */
function seatedGoat(version = 2, moves: string[] = []) {
  const t = setup(TOKEN);
  t.conn.connect();
  t.socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(version, moves) });
  return t;
}

/** The page re-joins exactly `ms` after now (fake timers): not a millisecond before. */
function expectRejoinAfter(socket: ReturnType<typeof setup>['socket'], ms: number): void {
  const joins = socket.count('room:join');
  vi.advanceTimersByTime(ms - 1);
  expect(socket.count('room:join')).toBe(joins);
  vi.advanceTimersByTime(1);
  expect(socket.count('room:join')).toBe(joins + 1);
}

describe('GameConnection', () => {
  it('joins on connect with the stored seat token and takes the reply snapshot', () => {
    const { socket, conn } = setup(TOKEN);
    conn.connect();
    expect(conn.status).toBe('connecting');
    const join = socket.last('room:join');
    expect(join.request).toEqual({ roomId: 'room-abc', seatToken: TOKEN });
    join.ack(null, { ok: true, role: 'tiger', snapshot: snap(3) });
    expect(conn.role).toBe('tiger');
    expect(conn.version).toBe(3);
    expect(conn.status).toBe('online');
    expect(conn.connected).toBe(true);
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

  it('keeps events that come during a join and applies those newer than its reply after it', () => {
    const { socket, conn } = setup();
    conn.connect();
    // With several nodes the page hears the room before the join's snapshot is read: a move of
    // another node can reach it first, newer than the reply.
    socket.fire('room:event', event(5, ['G@c3', 'a1-b2']));
    socket.fire('room:event', event(4, ['G@c3']));
    socket.last('room:join').ack(null, { ok: true, role: 'spectator', snapshot: snap(3) });
    expect(conn.version).toBe(5);
    expect(conn.snapshot?.moves).toEqual(['G@c3', 'a1-b2']);
    expect(socket.count('room:join')).toBe(1);
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
    socket.drop();
    expect(conn.status).toBe('reconnecting');
    socket.connect();
    expect(socket.last('room:join').request).toEqual({ roomId: 'room-abc', since: 7 });
  });

  it('a claim whose answer is lost or late is sent again, same claimKey, after the next join until answered', () => {
    const { socket, conn, saved } = setup();
    conn.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'spectator', snapshot: snap(2, ['G@c3']) });
    conn.claim('tiger');
    const first = socket.last('seat:claim').request as { claimKey: string };
    // Late on a live connection: a re-join, then the same claim again.
    socket.last('seat:claim').ack(new Error('operation has timed out'));
    expect(conn.lastError).toBeNull();
    expect(socket.count('room:join')).toBe(2);
    socket.last('room:join').ack(null, { ok: true, role: 'spectator', snapshot: snap(3, ['G@c3']) });
    expect(socket.count('seat:claim')).toBe(2);
    expect(socket.last('seat:claim').request).toEqual(first);
    // Lost with the connection: sent again after the re-join that follows the reconnect.
    socket.drop();
    socket.connect();
    expect(socket.count('seat:claim')).toBe(2);
    socket.last('room:join').ack(null, { ok: true, role: 'spectator', snapshot: snap(3, ['G@c3']) });
    expect(socket.count('seat:claim')).toBe(3);
    expect(socket.last('seat:claim').request).toEqual(first);
    socket.last('seat:claim').ack(null, { ok: true, seatToken: TOKEN, snapshot: snap(3, ['G@c3']) });
    expect(conn.role).toBe('tiger');
    expect(saved.get('room-abc')).toBe(TOKEN);
    // Answered: not sent again; a new claim has a new key.
    socket.drop();
    socket.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'tiger', snapshot: snap(3, ['G@c3']) });
    expect(socket.count('seat:claim')).toBe(3);
    conn.claim('goat');
    expect((socket.last('seat:claim').request as { claimKey: string }).claimKey).not.toBe(first.claimKey);
  });

  it('a first join refused for a while (UNAVAILABLE, RATE_LIMITED) or out of reach says why and is tried again', () => {
    vi.useFakeTimers();
    const { socket, conn } = setup(TOKEN);
    conn.connect();
    socket.fire('connect_error', new Error('xhr poll error'));
    expect(conn.joinError?.code).toBe('OFFLINE');
    for (const code of ['UNAVAILABLE', 'RATE_LIMITED']) {
      const joins = socket.count('room:join');
      socket.last('room:join').ack(null, { ok: false, error: { code, message: 'later' } });
      expect(conn.joinError?.code).toBe(code);
      vi.advanceTimersByTime(2 * RECONNECT.delayMs * (1 + RECONNECT.jitter));
      expect(socket.count('room:join')).toBe(joins + 1);
    }
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(2) });
    expect(conn.joinError).toBeNull();
    expect(conn.role).toBe('goat');
  });

  it('claim stores the seat token; move sends ply and surfaces ack errors', () => {
    const { socket, conn, saved } = setup();
    conn.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'spectator', snapshot: snap(2, ['G@c3']) });
    conn.claim('goat');
    expect(socket.last('seat:claim').request).toEqual({
      roomId: 'room-abc',
      side: 'goat',
      claimKey: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
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

  it('sends every game command with its payload from the registry, and shows a refusal (version and all)', () => {
    const { socket, conn } = seatedGoat(4);
    conn.resign();
    conn.claimAbandoned('draw');
    conn.sendChat('players', 'gl hf');
    conn.offerRematch();
    expect(socket.last('resign').request).toEqual({ roomId: 'room-abc' });
    expect(socket.last('abandon:claim').request).toEqual({ roomId: 'room-abc', outcome: 'draw' });
    expect(socket.last('chat:send').request).toEqual({
      roomId: 'room-abc',
      channel: 'players',
      text: 'gl hf',
    });
    socket.last('rematch:offer').ack(null, { ok: true, version: 5, roomId: 'room-new' });
    expect(conn.lastError).toBeNull();
    const refusal = { ok: false, error: { code: 'GAME_OVER', message: 'the game is over' }, version: 9 };
    socket.last('resign').ack(null, refusal);
    expect(conn.lastError).toEqual(refusal.error);
    socket.last('chat:send').ack(new Error('timed out'));
    expect(conn.lastError?.code).toBe('TIMEOUT');
  });

  it('says of a chat message the store could not keep that the message was not sent, not that the game was not saved', async () => {
    const { socket, conn } = seatedGoat(4);
    const sent = conn.sendChat('players', 'gl hf');
    socket.last('chat:send').ack(null, { ok: false, error: { code: 'UNAVAILABLE', message: 'no store' } });
    expect(await sent).toBe(false); // the chat box keeps the text
    expect(conn.lastError).toEqual({
      code: 'NOT_SENT',
      message: 'Your message could not be sent just now; it is still in the box, try again.',
    });
    expect(errorText(conn.lastError!)).toBe(conn.lastError?.message);
    // Other commands refused so keep the code (and its words).
    conn.resign();
    socket.last('resign').ack(null, { ok: false, error: { code: 'UNAVAILABLE', message: 'no store' } });
    expect(conn.lastError?.code).toBe('UNAVAILABLE');
  });

  it('takes server events through the typed listeners, and unbinds them on close', () => {
    const { socket, conn } = seatedGoat(2);
    const message = { roomId: 'room-abc', channel: 'players', from: 'tiger', text: 'hi', at: 1 };
    socket.fire('chat:message', message);
    socket.fire('chat:message', { ...message, roomId: 'room-other' });
    expect(conn.chat).toEqual([message]);
    socket.fire('seat:assigned', { roomId: 'room-new', side: 'tiger', seatToken: 'n'.repeat(24) });
    expect(conn.rematchRoom).toBe('room-new');
    conn.close();
    expect([...socket.handlers.values()].every((handlers) => handlers.size === 0)).toBe(true);
  });

  it('says what is happening: Reconnecting…, Back online for a moment, then Online', () => {
    vi.useFakeTimers();
    const { socket, conn } = seatedGoat(5);
    socket.drop();
    expect(conn.status).toBe('reconnecting');
    expect(conn.connected).toBe(false);
    socket.connect(); // Socket.IO's own reconnect
    expect(conn.status).toBe('reconnecting'); // connected, not yet re-joined
    const rejoin = socket.last('room:join');
    expect(rejoin.request).toEqual({ roomId: 'room-abc', seatToken: TOKEN, since: 5 });
    rejoin.ack(null, { ok: true, role: 'goat', snapshot: snap(6) });
    expect(conn.status).toBe('back-online');
    expect(conn.connected).toBe(true);
    vi.advanceTimersByTime(BACK_ONLINE_MS);
    expect(conn.status).toBe('online');
  });

  it('is offline only while the browser is, and tries again at once when it is back', () => {
    const { socket, conn } = seatedGoat();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    expect(conn.status).toBe('offline'); // before the socket has noticed
    expect(conn.connected).toBe(false);
    socket.drop();
    expect(conn.status).toBe('offline');
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const connects = socket.connects;
    window.dispatchEvent(new Event('online'));
    expect(socket.connects).toBe(connects + 1);
    expect(conn.status).toBe('reconnecting');
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(2) });
    expect(conn.status).toBe('back-online');
  });

  it('reconnects itself, after a jittered delay, when the server ended the session', () => {
    vi.useFakeTimers();
    const { socket, conn } = seatedGoat();
    vi.spyOn(Math, 'random').mockReturnValue(1); // the longest draw: RECONNECT's delay × 1.5
    const connects = socket.connects;
    socket.serverDisconnect();
    expect(conn.status).toBe('reconnecting');
    vi.advanceTimersByTime(RECONNECT.delayMs * (1 + RECONNECT.jitter) - 1);
    expect(socket.connects).toBe(connects);
    vi.advanceTimersByTime(1);
    expect(socket.connects).toBe(connects + 1);
  });

  it('spreads the returns of many pages over the backoff window', () => {
    vi.useFakeTimers();
    const firstTry: number[] = [];
    for (const draw of [0, 0.5, 0.999]) {
      vi.spyOn(Math, 'random').mockReturnValue(draw);
      const { socket } = seatedGoat();
      const connects = socket.connects;
      socket.serverDisconnect();
      let waited = 0;
      while (socket.connects === connects) {
        vi.advanceTimersByTime(10);
        waited += 10;
      }
      firstTry.push(waited);
    }
    expect(firstTry[0]).toBeLessThan(firstTry[1]!);
    expect(firstTry[1]).toBeLessThan(firstTry[2]!);
    expect(firstTry[2]! - firstTry[0]!).toBeGreaterThanOrEqual(RECONNECT.delayMs * 2 * RECONNECT.jitter - 20);
  });

  it('a page shown again reconnects at once when down, re-joins when it was hidden a while', () => {
    vi.useFakeTimers();
    const { socket } = seatedGoat(4);
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    const show = (state: DocumentVisibilityState) => {
      visibility.mockReturnValue(state);
      document.dispatchEvent(new Event('visibilitychange'));
    };
    show('hidden');
    vi.advanceTimersByTime(60_000); // a laptop asleep
    const joins = socket.count('room:join');
    show('visible');
    expect(socket.count('room:join')).toBe(joins + 1);
    expect(socket.last('room:join').request).toMatchObject({ since: 4 });
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(4) });

    show('hidden');
    socket.drop();
    const connects = socket.connects;
    show('visible');
    expect(socket.connects).toBe(connects + 1);
  });

  it('starts afresh when a join gets no answer on an open connection (it may be dead)', () => {
    const { socket, conn } = seatedGoat(3);
    socket.fire('room:event', event(5)); // a gap: re-join
    const connects = socket.connects;
    socket.last('room:join').ack(new Error('timeout'));
    expect(socket.connects).toBe(connects + 1);
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(5) });
    expect(conn.status).toBe('back-online');
  });

  it('a move made while down waits, then goes out once, at the same ply, after the re-join', () => {
    const { socket, conn } = seatedGoat(2);
    socket.drop();
    conn.move('G@c3');
    expect(socket.count('move')).toBe(0);
    expect(conn.pending).toBe(true);
    expect(conn.waitingMove).toBe('G@c3');
    expect(conn.lastError).toBeNull();
    conn.move('G@d3'); // one move at a time
    expect(conn.lastError?.code).toBe('NOT_SENT');

    socket.connect();
    expect(socket.count('move')).toBe(0); // not before the re-join says where the game is
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(2) });
    expect(socket.count('move')).toBe(1);
    expect(socket.last('move').request).toEqual({ roomId: 'room-abc', move: 'G@c3', ply: 0 });
    expect(conn.waitingMove).toBe('G@c3'); // still shown waiting until the server answers: no flicker
    socket.last('move').ack(null, { ok: true, version: 3 });
    expect(conn.pending).toBe(false);
    expect(conn.waitingMove).toBeNull();
  });

  it("a move's own event settles it before its late ack: no longer pending nor shown waiting", () => {
    const { socket, conn } = seatedGoat(2);
    socket.drop();
    conn.move('G@c3');
    socket.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(2) });
    expect(conn.waitingMove).toBe('G@c3'); // sent again, its ack on the way
    socket.fire('room:event', event(3, ['G@c3']));
    expect(conn.pending).toBe(false);
    expect(conn.waitingMove).toBeNull();
    socket.last('move').ack(null, { ok: true, version: 3 });
    expect(conn.lastError).toBeNull();
  });

  it('a move waiting out a store outage is settled by its own event (the store kept it after all), with no resend', () => {
    vi.useFakeTimers();
    const { socket, conn } = seatedGoat(2);
    conn.move('G@c3');
    socket.last('move').ack(null, { ok: false, error: { code: 'UNAVAILABLE', message: 'slow store' } });
    expect(conn.waitingMove).toBe('G@c3');
    socket.fire('room:event', event(3, ['G@c3']));
    expect(conn.pending).toBe(false);
    expect(conn.waitingMove).toBeNull();
    vi.advanceTimersByTime(RECONNECT.maxDelayMs);
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(3, ['G@c3']) });
    expect(socket.count('move')).toBe(1);
    expect(conn.lastError).toBeNull();
  });

  it('a move sent at once is not shown waiting while its ack is on the way', () => {
    const { socket, conn } = seatedGoat(2);
    conn.move('G@c3');
    expect(conn.pending).toBe(true);
    expect(conn.waitingMove).toBeNull();
    socket.last('move').ack(null, { ok: true, version: 3 });
    expect(conn.pending).toBe(false);
  });

  it('a move whose ack was lost is not sent again when the re-join shows it played', () => {
    const { socket, conn } = seatedGoat(2);
    conn.move('g@C3'); // another spelling of G@c3
    socket.drop(); // the ack fails with the connection
    expect(conn.waitingMove).toBe('g@C3');
    socket.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(3, ['G@c3']) });
    expect(socket.count('move')).toBe(1);
    expect(conn.pending).toBe(false);
    expect(conn.lastError).toBeNull();
  });

  it('a move whose ack timed out is sent again, same ply, when the re-join shows it was not played', () => {
    const { socket, conn } = seatedGoat(2);
    conn.move('G@c3');
    socket.last('move').ack(new Error('timeout'));
    expect(conn.pending).toBe(true);
    const rejoin = socket.last('room:join');
    expect(rejoin.request).toMatchObject({ since: 2 });
    rejoin.ack(null, { ok: true, role: 'goat', snapshot: snap(2) });
    expect(socket.count('move')).toBe(2);
    expect(socket.last('move').request).toEqual({ roomId: 'room-abc', move: 'G@c3', ply: 0 });
    socket.emitted.find((e) => e.name === 'move')!.ack(null, { ok: true, version: 3 }); // the first, late
    expect(conn.pending).toBe(true); // only the latest attempt's answer counts
    socket.last('move').ack(null, { ok: true, version: 3 });
    expect(conn.pending).toBe(false);
  });

  it("a waiting move is refused, with the server's board, when the game moved on without it", () => {
    const { socket, conn } = seatedGoat(2);
    socket.drop();
    conn.move('G@c3');
    socket.connect();
    const movedOn = snap(4, ['G@b3', 'a1-b1']);
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: movedOn });
    expect(socket.count('move')).toBe(0);
    expect(conn.pending).toBe(false);
    expect(conn.lastError?.code).toBe('NOT_SENT');
    expect(conn.snapshot).toBe(movedOn);
  });

  it('a move the server cannot store stays the waiting move, tried again with a capped backoff for as long as the outage lasts', () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0); // no jitter: each wait is its step in full
    const { socket, conn } = seatedGoat(2);
    const unavailable = { ok: false, error: { code: 'UNAVAILABLE', message: 'the store failed' } };
    conn.move('G@c3');
    const steps = [1000, 2000, 4000, 5000, 5000, 5000, 5000, 5000, 5000, 5000];
    for (const [i, step] of steps.entries()) {
      socket.last('move').ack(null, unavailable);
      expect(conn.waitingMove).toBe('G@c3');
      expect(conn.pending).toBe(true);
      expect(conn.lastError).toBeNull();
      expectRejoinAfter(socket, step);
      socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(2) });
      expect(socket.count('move')).toBe(i + 2);
      expect(socket.last('move').request).toEqual({ roomId: 'room-abc', move: 'G@c3', ply: 0 });
      // In flight again: still the waiting move, so the board and status do not flicker.
      expect(conn.waitingMove).toBe('G@c3');
    }
    socket.last('move').ack(null, { ok: true, version: 3 });
    expect(conn.pending).toBe(false);
    expect(conn.waitingMove).toBeNull();
    expect(conn.lastError).toBeNull();
  });

  it('a move waiting out a store outage is done when the re-join shows the store took it after all', () => {
    vi.useFakeTimers();
    const { socket, conn } = seatedGoat(2);
    conn.move('G@c3');
    socket.last('move').ack(null, { ok: false, error: { code: 'UNAVAILABLE', message: 'slow store' } });
    vi.advanceTimersByTime(RECONNECT.maxDelayMs);
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(3, ['G@c3']) });
    expect(socket.count('move')).toBe(1);
    expect(conn.pending).toBe(false);
    expect(conn.lastError).toBeNull();
  });

  it.each(['GAME_OVER', 'STALE', 'ILLEGAL_MOVE'])(
    'a move waiting out a store outage is dropped, and the reason shown, when refused %s',
    (code) => {
      vi.useFakeTimers();
      const { socket, conn } = seatedGoat(2);
      conn.move('G@c3');
      socket.last('move').ack(null, { ok: false, error: { code: 'UNAVAILABLE', message: 'no store' } });
      vi.advanceTimersByTime(RECONNECT.maxDelayMs);
      socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(2) });
      socket.last('move').ack(null, { ok: false, error: { code, message: 'no' } });
      expect(conn.pending).toBe(false);
      expect(conn.waitingMove).toBeNull();
      expect(conn.lastError?.code).toBe(code);
    },
  );

  it('a move waiting out a store outage also waits across a disconnect, and goes out after the re-join', () => {
    vi.useFakeTimers();
    const { socket, conn } = seatedGoat(2);
    conn.move('G@c3');
    socket.last('move').ack(null, { ok: false, error: { code: 'UNAVAILABLE', message: 'no store' } });
    socket.drop();
    expect(conn.waitingMove).toBe('G@c3');
    vi.advanceTimersByTime(RECONNECT.maxDelayMs); // the timer finds no connection: nothing sent
    expect(socket.count('move')).toBe(1);
    socket.connect();
    // The re-join is refused by the same outage: the move still just waits, with no error beside it.
    socket.last('room:join').ack(null, { ok: false, error: { code: 'UNAVAILABLE', message: 'no store' } });
    expect(conn.waitingMove).toBe('G@c3');
    expect(conn.lastError).toBeNull();
    const joins = socket.count('room:join');
    vi.advanceTimersByTime(2 * RECONNECT.delayMs * (1 + RECONNECT.jitter));
    expect(socket.count('room:join')).toBe(joins + 1);
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(2) });
    expect(socket.count('move')).toBe(2);
    expect(conn.waitingMove).toBe('G@c3');
    socket.last('move').ack(null, { ok: true, version: 3 });
    expect(conn.pending).toBe(false);
  });

  it('a move waiting out an outage in which every re-join is refused too (PostgreSQL) re-joins with the same capped backoff', () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0); // no jitter: each wait is its step in full
    const { socket, conn } = seatedGoat(2);
    const unavailable = { ok: false, error: { code: 'UNAVAILABLE', message: 'the store failed' } };
    conn.move('G@c3');
    socket.last('move').ack(null, unavailable);
    vi.advanceTimersByTime(1000);
    for (const step of [1000, 2000, 4000, 5000, 5000, 5000]) {
      socket.last('room:join').ack(null, unavailable);
      expect(conn.waitingMove).toBe('G@c3');
      expect(conn.lastError).toBeNull();
      expectRejoinAfter(socket, step);
    }
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(2) });
    expect(socket.count('move')).toBe(2);
    socket.last('move').ack(null, { ok: true, version: 3 });
    expect(conn.pending).toBe(false);
  });

  it('the wait after each refusal in a row grows from 0.5–1 s to at most 5 s', () => {
    for (const draw of [0, 0.5, 0.999]) {
      vi.spyOn(Math, 'random').mockReturnValue(draw);
      expect(retryDelay(1)).toBeGreaterThanOrEqual(500);
      expect(retryDelay(1)).toBeLessThanOrEqual(1000);
      expect(retryDelay(3)).toBeLessThanOrEqual(4000);
      expect(retryDelay(50)).toBeLessThanOrEqual(RECONNECT.maxDelayMs);
      expect(retryDelay(50)).toBeGreaterThanOrEqual(RECONNECT.maxDelayMs / 2);
    }
  });

  it('refuses other commands while down, and after a refused re-join tries again', () => {
    vi.useFakeTimers();
    const { socket, conn } = seatedGoat(2);
    socket.drop();
    conn.resign();
    expect(socket.count('resign')).toBe(0);
    expect(conn.lastError?.code).toBe('OFFLINE');
    socket.connect();
    socket.last('room:join').ack(null, { ok: false, error: { code: 'INTERNAL', message: 'shutting down' } });
    expect(conn.connected).toBe(false);
    const joins = socket.count('room:join');
    vi.advanceTimersByTime(2 * RECONNECT.delayMs * (1 + RECONNECT.jitter));
    expect(socket.count('room:join')).toBe(joins + 1);
    socket.last('room:join').ack(null, { ok: true, role: 'goat', snapshot: snap(2) });
    expect(conn.connected).toBe(true);
    expect(conn.lastError).toBeNull();
  });

  it('says when the opponent declined this player’s draw offer, until the player moves', () => {
    const { socket, conn } = seatedGoat(2);
    const draw = (
      version: number,
      side: 'tiger' | 'goat',
      drawOffer: 'tiger' | 'goat' | null,
    ): RoomEvent => ({
      roomId: 'room-abc',
      version,
      type: 'draw',
      side,
      snapshot: { ...snap(version), drawOffer },
    });
    const moved = (version: number, side: 'tiger' | 'goat'): RoomEvent => ({ ...event(version), side });
    socket.fire('room:event', draw(3, 'goat', 'goat'));
    expect(conn.drawDeclined).toBe(false);
    socket.fire('room:event', draw(4, 'tiger', null));
    expect(conn.drawDeclined).toBe(true);
    socket.fire('room:event', moved(5, 'tiger'));
    expect(conn.drawDeclined).toBe(true);
    socket.fire('room:event', moved(6, 'goat'));
    expect(conn.drawDeclined).toBe(false);
    // The goat declining the tiger's offer is not news to the goat.
    socket.fire('room:event', draw(7, 'tiger', 'tiger'));
    socket.fire('room:event', draw(8, 'goat', null));
    expect(conn.drawDeclined).toBe(false);
  });

  it('tells a spectator of no declined offer', () => {
    const { socket, conn } = setup();
    conn.connect();
    socket.last('room:join').ack(null, { ok: true, role: 'spectator', snapshot: snap(1) });
    socket.fire('room:event', { ...event(2), type: 'draw', side: 'tiger' });
    expect(conn.drawDeclined).toBe(false);
  });
});
