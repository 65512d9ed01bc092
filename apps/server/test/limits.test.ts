/**
 * Limits that count people, not sockets (issue 16): chat per seat and per address, one room budget
 * per address for new rooms, imports and rematches, games against the computer per address, and
 * sockets per address. Real server, real Socket.IO clients; other addresses come through
 * X-Forwarded-For with TRUST_PROXY.
 */
import type { SeatAssigned } from '@bagh/protocol';
import { Manager } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../src/limits/address.js';
import { Client, createRoom, expectError, perTest, type TestServer, waitUntil } from './helpers.js';

const fixture = perTest();

/** A connected client that comes from `address` (the server must trust the proxy header). */
async function clientFrom(url: string, address: string): Promise<Client> {
  const client = await Client.connect(url, { headers: { 'x-forwarded-for': address } });
  fixture.defer(() => client.close());
  return client;
}

/** The ack codes of `acks`: `ok` or the error code. */
// biome-ignore lint/suspicious/noExplicitAny: acks are checked here
const codes = (acks: any[]): string[] => acks.map((ack) => (ack.ok ? 'ok' : ack.error.code));
const count = (list: string[], code: string) => list.filter((c) => c === code).length;

async function createdRooms(server: TestServer): Promise<number> {
  const metric = await server.app.metrics.roomsCreated.get();
  return metric.values[0]?.value ?? 0;
}

/** `bagh_limited_total` for `limit`. */
async function limited(server: TestServer, limit: string): Promise<number> {
  const metric = await server.app.metrics.limited.get();
  return metric.values.find((value) => value.labels.limit === limit)?.value ?? 0;
}

describe('the client address', () => {
  it('is the remote address, or with TRUST_PROXY the entry our proxy appended to X-Forwarded-For', () => {
    const forwarded = { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' };
    expect(clientAddress('10.0.0.1', forwarded, false)).toBe('10.0.0.1');
    expect(clientAddress('10.0.0.1', forwarded, true)).toBe('203.0.113.7');
    // Whatever the client writes to the left of it changes nothing.
    expect(clientAddress('10.0.0.1', { 'x-forwarded-for': '1.2.3.4,203.0.113.7' }, true)).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.1', { 'x-forwarded-for': 'not-an-address' }, true)).toBe('10.0.0.1');
    expect(clientAddress('10.0.0.1', {}, true)).toBe('10.0.0.1');
    expect(clientAddress('::ffff:127.0.0.1', {}, false)).toBe('127.0.0.1');
    // IPv6 counts by the /64: a subscriber's devices pick addresses in it at will.
    expect(clientAddress('10.0.0.1', { 'x-forwarded-for': '2001:db8::1' }, true)).toBe('2001:db8:0:0::/64');
    expect(clientAddress('2001:db8:0:7:a:b:c:d', {}, false)).toBe('2001:db8:0:7::/64');
    expect(clientAddress('2001:0db8:0000:0007::1', {}, false)).toBe('2001:db8:0:7::/64');
    expect(clientAddress('2001:db8:0:8::1', {}, false)).not.toBe(clientAddress('2001:db8:0:7::1', {}, false));
    expect(clientAddress('fe80::1%eth0', {}, false)).toBe('fe80:0:0:0::/64');
    expect(clientAddress('::1', {}, false)).toBe('0:0:0:0::/64');
    expect(clientAddress('64:ff9b::192.0.2.1', {}, false)).toBe('64:ff9b:0:0::/64');
  });
});

describe('chat', () => {
  it('20 sockets holding one seat token share the seat budget', async () => {
    const server = await fixture.server();
    const { url } = server;
    const t = await fixture.table(url);
    const sockets = [t.goat];
    for (let i = 1; i < 20; i++) {
      const c = await fixture.client(url);
      expect(await c.request('room:join', { roomId: t.roomId, seatToken: t.tokens.goat })).toMatchObject({
        role: 'goat',
      });
      sockets.push(c);
    }
    const acks = await Promise.all(
      sockets.map((c, i) =>
        c.request('chat:send', { roomId: t.roomId, channel: 'players', text: `line ${i}` }),
      ),
    );
    const sent = codes(acks);
    expect(count(sent, 'ok')).toBe(5);
    expect(count(sent, 'RATE_LIMITED')).toBe(15);
    expect(await limited(server, 'chat')).toBe(15);
    // The other seat has its own budget.
    expect(
      await t.tiger.request('chat:send', { roomId: t.roomId, channel: 'players', text: 'hi' }),
    ).toMatchObject({
      ok: true,
    });
    const late = await fixture.client(url);
    const joined = await late.request('room:join', { roomId: t.roomId });
    expect(joined.chat).toHaveLength(6);
  });

  it("spectators of one address share its budget; another address's spectators have their own", async () => {
    const { url } = await fixture.server({ config: { TRUST_PROXY: true } });
    const t = await fixture.table(url);
    const watchers: Client[] = [];
    for (let i = 0; i < 20; i++) {
      const c = await clientFrom(url, '198.51.100.1');
      await c.request('room:join', { roomId: t.roomId });
      watchers.push(c);
    }
    const acks = await Promise.all(
      watchers.map((c, i) =>
        c.request('chat:send', { roomId: t.roomId, channel: 'spectators', text: `s${i}` }),
      ),
    );
    expect(count(codes(acks), 'ok')).toBe(5);
    const elsewhere = await clientFrom(url, '198.51.100.2');
    await elsewhere.request('room:join', { roomId: t.roomId });
    expect(
      await elsewhere.request('chat:send', { roomId: t.roomId, channel: 'spectators', text: 'me too' }),
    ).toMatchObject({ ok: true });
    const joined = await elsewhere.request('room:join', { roomId: t.roomId });
    expect(joined.chat).toHaveLength(6);
  });
});

describe('room creation', () => {
  it('a resign → rematch loop against the computer stops at the budget, and the metric counts every room', async () => {
    const server = await fixture.server({ options: { roomCreationPerMinute: 5, botMinDelayMs: 0 } });
    const { url } = server;
    const first = await createRoom(url, {
      variant: 'bagh-chal',
      side: 'goat',
      opponent: { bot: 'beginner' },
    });
    const player = await fixture.client(url);
    let seat = { roomId: first.roomId, seatToken: first.seatToken };
    const answers: string[] = [];
    for (let round = 0; round < 8; round++) {
      expect(await player.request('room:join', seat)).toMatchObject({ ok: true });
      expect(await player.request('resign', { roomId: seat.roomId })).toMatchObject({ ok: true });
      const assigned = new Promise<SeatAssigned>((resolve) => player.socket.once('seat:assigned', resolve));
      const ack = await player.request('rematch:offer', { roomId: seat.roomId });
      answers.push(ack.ok ? 'ok' : ack.error.code);
      if (!ack.ok) {
        expect(ack.error.message).toMatch(/rooms per minute/);
        break;
      }
      seat = await assigned;
    }
    expect(answers).toEqual(['ok', 'ok', 'ok', 'ok', 'RATE_LIMITED']);
    expect(await createdRooms(server)).toBe(5);
    // The HTTP routes draw on the same budget.
    const response = await fetch(`${url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variant: 'bagh-chal', side: 'goat' }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    expect(await createdRooms(server)).toBe(5);
    expect(await limited(server, 'rooms')).toBe(2);
  });

  it('a human rematch counts against the accepting address too', async () => {
    const server = await fixture.server({ options: { roomCreationPerMinute: 1 } });
    const t = await fixture.table(server.url);
    await t.goat.request('resign', { roomId: t.roomId });
    expect(await t.goat.request('rematch:offer', { roomId: t.roomId })).toMatchObject({ ok: true });
    const ack = await t.tiger.request('rematch:accept', { roomId: t.roomId });
    expectError(ack, 'RATE_LIMITED');
    expect(await createdRooms(server)).toBe(1);
  });
});

describe('games against the computer per address', () => {
  const botRoom = (url: string, address: string) =>
    fetch(`${url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ variant: 'bagh-chal', side: 'goat', opponent: { bot: 'beginner' } }),
    });

  it('refuses one more while the address has BOT_GAMES_PER_ADDRESS in play; a finished game stops counting', async () => {
    const server = await fixture.server({ config: { TRUST_PROXY: true, BOT_GAMES_PER_ADDRESS: 2 } });
    const { url } = server;
    const a = (await (await botRoom(url, '192.0.2.1')).json()) as { roomId: string; seatToken: string };
    expect((await botRoom(url, '192.0.2.1')).status).toBe(201);
    const refused = await botRoom(url, '192.0.2.1');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.message).toMatch(/at most 2 games against the computer/);
    expect(await limited(server, 'bot-games')).toBe(1);
    // A room between people, and another address, are not held back.
    expect((await createRoom(url, { variant: 'bagh-chal', side: 'goat' })).roomId).toBeTruthy();
    expect((await botRoom(url, '192.0.2.2')).status).toBe(201);

    const player = await clientFrom(url, '192.0.2.1');
    await player.request('room:join', { roomId: a.roomId, seatToken: a.seatToken });
    expect(await player.request('resign', { roomId: a.roomId })).toMatchObject({ ok: true });
    expect((await botRoom(url, '192.0.2.1')).status).toBe(201);
  });

  it('refuses a rematch against the computer past the cap, with a clear message', async () => {
    const { url } = await fixture.server({ config: { BOT_GAMES_PER_ADDRESS: 2 } });
    const body = { variant: 'bagh-chal', side: 'goat', opponent: { bot: 'beginner' } };
    const first = await createRoom(url, body);
    const player = await fixture.client(url);
    await player.request('room:join', { roomId: first.roomId, seatToken: first.seatToken });
    await player.request('resign', { roomId: first.roomId });
    await createRoom(url, body);
    await createRoom(url, body);
    const ack = await player.request('rematch:offer', { roomId: first.roomId });
    expectError(ack, 'RATE_LIMITED');
    expect(ack.error.message).toMatch(/games against the computer/);
  });

  it('a game evicted from memory stops counting', async () => {
    const server = await fixture.server({
      config: { BOT_GAMES_PER_ADDRESS: 1 },
      options: { roomIdleMs: 20 },
    });
    const body = { variant: 'bagh-chal', side: 'goat', opponent: { bot: 'beginner' } };
    await createRoom(url(server), body);
    await expect(createRoom(url(server), body)).rejects.toThrow(/429/);
    // Nobody joined: the room empties and idles out of memory (the sweep runs every second).
    await waitUntil(() => server.app.rooms.liveRooms === 0, 10_000);
    expect((await createRoom(url(server), body)).roomId).toBeTruthy();
  });

  it('a game brought back by its player counts again: past the cap its join is RATE_LIMITED', async () => {
    const server = await fixture.server({
      config: { BOT_GAMES_PER_ADDRESS: 1 },
      options: { roomIdleMs: 20 },
    });
    const body = { variant: 'bagh-chal', side: 'goat', opponent: { bot: 'beginner' } };
    const old = await createRoom(url(server), body);
    await waitUntil(() => server.app.rooms.liveRooms === 0, 10_000);
    const current = await createRoom(url(server), body); // the address's one game in play
    const player = await fixture.client(url(server));
    const back = await player.request('room:join', { roomId: old.roomId, seatToken: old.seatToken });
    expectError(back, 'RATE_LIMITED');
    expect(back.error.message).toMatch(/at most 1 games against the computer/);
    // Watching it is not playing it; the game in play joins as ever.
    expect(await player.request('room:join', { roomId: old.roomId })).toMatchObject({
      ok: true,
      role: 'spectator',
    });
    const again = await player.request('room:join', { roomId: current.roomId, seatToken: current.seatToken });
    expect(again).toMatchObject({ ok: true, role: 'goat' });
    // Once that one is over, the old game may be played again.
    expect(await player.request('resign', { roomId: current.roomId })).toMatchObject({ ok: true });
    const resumed = await player.request('room:join', { roomId: old.roomId, seatToken: old.seatToken });
    expect(resumed).toMatchObject({ ok: true, role: 'goat' });
    expect(await limited(server, 'bot-games')).toBe(1);
  });
});

const url = (server: TestServer) => server.url;

describe('sockets per address', () => {
  it('refuses the socket past MAX_SOCKETS_PER_ADDRESS with RATE_LIMITED, and takes one again once one leaves', async () => {
    const server = await fixture.server({ config: { TRUST_PROXY: true, MAX_SOCKETS_PER_ADDRESS: 5 } });
    const open: Client[] = [];
    for (let i = 0; i < 5; i++) open.push(await clientFrom(server.url, '203.0.113.9'));
    const refused = new Client(server.url, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    fixture.defer(() => refused.close());
    const error = await new Promise<Error & { data?: unknown }>((resolve) =>
      refused.socket.once('connect_error', resolve),
    );
    expect(error.message).toMatch(/too many connections from one address/);
    expect(error.data).toEqual({ code: 'RATE_LIMITED' });
    expect(await limited(server, 'sockets')).toBe(1);
    // Another address is not held back.
    await clientFrom(server.url, '203.0.113.10');
    // One leaves: once the server has seen it go, a new socket from the address is taken.
    open[0]!.close();
    await waitUntil(() => server.app.io.of('/').sockets.size === 5);
    await clientFrom(server.url, '203.0.113.9');
  });

  it('a session brought back by connection state recovery counts too: past the cap it is refused', async () => {
    const server = await fixture.server({ config: { TRUST_PROXY: true, MAX_SOCKETS_PER_ADDRESS: 3 } });
    const from = { 'x-forwarded-for': '203.0.113.11' };
    const created = await createRoom(server.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    // Three sockets that can recover: each has been sent an event (its offset) in the room.
    const old = await Promise.all([0, 1, 2].map(() => Client.connect(server.url, { headers: from })));
    for (const client of old) {
      fixture.defer(() => client.close());
      await client.request('room:join', { roomId });
    }
    // The goat comes in from elsewhere: an event to each of the three.
    const goat = await Client.connect(server.url);
    fixture.defer(() => goat.close());
    await goat.request('room:join', { roomId, seatToken: created.seatToken });
    await Promise.all(old.map((client) => client.waitFor((event) => event.snapshot.seats.goat.connected)));
    for (const client of old) client.socket.io.engine.close(); // the transport drops; no reconnect
    await waitUntil(() => server.app.io.of('/').sockets.size === 1); // the goat's
    for (let i = 0; i < 3; i++) await clientFrom(server.url, '203.0.113.11');
    // They come back with their session: recovered, and refused at once.
    const outcomes = await Promise.all(
      old.map(
        (client) =>
          new Promise<string>((resolve) => {
            client.socket.once('disconnect', (reason) => resolve(`${client.socket.recovered} ${reason}`));
            client.socket.connect();
          }),
      ),
    );
    expect(outcomes).toEqual([
      'true io server disconnect',
      'true io server disconnect',
      'true io server disconnect',
    ]);
    expect(server.app.io.of('/').sockets.size).toBe(4);
    expect(await limited(server, 'sockets')).toBe(3);
  });

  it('Engine.IO connections that never join are dropped after 10 s, and refused past twice the cap', async () => {
    const server = await fixture.server({ config: { TRUST_PROXY: true, MAX_SOCKETS_PER_ADDRESS: 2 } });
    const open = (): Promise<string> =>
      new Promise((resolve) => {
        const manager = new Manager(server.url, {
          transports: ['websocket'],
          autoConnect: false,
          reconnection: false,
          extraHeaders: { 'x-forwarded-for': '203.0.113.12' },
        });
        fixture.defer(() => {
          manager.engine?.close();
        });
        manager.open((error) => resolve(error ? 'refused' : 'open'));
      });
    const opened: string[] = [];
    for (let i = 0; i < 5; i++) opened.push(await open());
    expect(opened).toEqual(['open', 'open', 'open', 'open', 'refused']);
    expect(server.app.io.engine.clientsCount).toBe(4);
    await waitUntil(() => server.app.io.engine.clientsCount === 0, 15_000);
  });
});
