import { AckError, GameResult, Snapshot } from '@bagh/protocol';
import { describe, expect, it } from 'vitest';
import {
  createRoom,
  expectError,
  getSnapshot,
  movesSeen,
  perTest,
  playMoves,
  sharedServer,
  sleep,
} from './helpers.js';
import { BAGH_CHAL_TIGER_WIN } from './lines.js';

const server = sharedServer();
const fixture = perTest();
const connect = (url = server.url) => fixture.client(url);

/** A Bagh Chal room: goat seat held by `goat` (creator), tiger claimed by `tiger`, `watcher` spectating. */
const seatedRoom = () => fixture.table(server.url);

describe('every error code, and nothing changes', () => {
  it('BAD_REQUEST for payloads that do not match the schemas', async () => {
    const { roomId, goat } = await seatedRoom();
    const bad: [string, unknown][] = [
      ['room:join', { roomId: 5 }],
      ['room:join', null],
      ['room:join', 'hello'],
      ['room:join', { roomId, since: -1 }],
      ['seat:claim', { roomId, side: 'dragon' }],
      ['move', { roomId, move: 'G@c3' }],
      ['move', { roomId, move: 'G@c3', ply: 0.5 }],
      ['move', { roomId, move: 12, ply: 0 }],
      ['move', { roomId, move: 'G@c3', ply: -1 }],
      ['move', [roomId, 'G@c3', 0]],
    ];
    for (const [event, payload] of bad) {
      const ack = await goat.request(event, payload);
      expectError(ack, 'BAD_REQUEST');
      expect(ack.error.message.length).toBeGreaterThan(0);
    }
    expect((await getSnapshot(server.url, roomId)).moves).toEqual([]);
  });

  it('BAD_REQUEST, and nothing done, for a command with no payload or more than one before its ack', async () => {
    const { roomId, goat, tiger } = await seatedRoom();
    const sent = (...args: unknown[]) => goat.socket.timeout(5000).emitWithAck(...(args as [string]));
    expectError(await sent('room:join'), 'BAD_REQUEST');
    expectError(await sent('resign'), 'BAD_REQUEST');
    const twice = await sent('chat:send', { roomId, channel: 'players', text: 'hi' }, 1);
    expect(expectError(twice, 'BAD_REQUEST').error.message).toMatch(/one payload/);
    expectError(
      await sent('move', { roomId, move: 'G@c3', ply: 0 }, { roomId, move: 'G@c3', ply: 0 }),
      'BAD_REQUEST',
    );
    const after = await getSnapshot(server.url, roomId);
    expect(after).toMatchObject({ moves: [], result: null });
    // No chat was stored: the tiger's join holds none.
    expect((await tiger.request('room:join', { roomId })).chat).toEqual([]);
  });

  it('NOT_FOUND for an unknown room', async () => {
    const client = await connect();
    expectError(await client.request('room:join', { roomId: 'no-such-room' }), 'NOT_FOUND');
    expectError(await client.request('seat:claim', { roomId: 'no-such-room', side: 'goat' }), 'NOT_FOUND');
    expectError(await client.request('move', { roomId: 'no-such-room', move: 'G@c3', ply: 0 }), 'NOT_FOUND');
    // An id of the wrong shape names no room either.
    for (const roomId of ['x', 'nope', 'a b c d e f', 'é'.repeat(8)]) {
      expectError(await client.request('room:join', { roomId }), 'NOT_FOUND');
      expectError(await client.request('move', { roomId, move: 'G@c3', ply: 0 }), 'NOT_FOUND');
    }
    // A token, of any shape, for a room that does not exist: the room is what is missing.
    for (const seatToken of ['bad-token', 'x'.repeat(43)]) {
      expectError(await client.request('room:join', { roomId: 'no-such-room', seatToken }), 'NOT_FOUND');
    }
  });

  it('UNAUTHORIZED for spectators, strangers and wrong tokens', async () => {
    const {
      roomId,
      watcher,
      tokens: { goat: goatToken },
    } = await seatedRoom();
    expectError(await watcher.request('move', { roomId, move: 'G@c3', ply: 0 }), 'UNAUTHORIZED');
    const stranger = await connect();
    expectError(await stranger.request('move', { roomId, move: 'G@c3', ply: 0 }), 'UNAUTHORIZED');
    const forged = `${goatToken.slice(0, -2)}${goatToken.endsWith('AA') ? 'BB' : 'AA'}`;
    const wrong = expectError(
      await stranger.request('room:join', { roomId, seatToken: forged }),
      'UNAUTHORIZED',
    );
    expect(wrong.version).toEqual(expect.any(Number));
    // A token of the wrong shape belongs to no seat either, and is answered the same (the room's version).
    for (const seatToken of ['short', 'bad-token', 'not a token at all, with spaces']) {
      const refused = expectError(await stranger.request('room:join', { roomId, seatToken }), 'UNAUTHORIZED');
      expect(refused).toEqual(wrong);
    }
    expectError(await stranger.request('room:join', { roomId, seatToken: 5 }), 'BAD_REQUEST');
    // A room id of the wrong shape with another fault is a bad request, naming both.
    const both = await stranger.request('room:join', { roomId: 'x', seatToken: 5 });
    expect(expectError(both, 'BAD_REQUEST').error.message).toMatch(/roomId.*seatToken/);
    expectError(await stranger.request('move', { roomId, move: 'G@c3', ply: 0 }), 'UNAUTHORIZED');
    // A token of another room is no good here either.
    const other = await createRoom(server.url, { variant: 'bagh-chal', side: 'tiger' });
    expectError(await stranger.request('room:join', { roomId, seatToken: other.seatToken }), 'UNAUTHORIZED');
    expect((await getSnapshot(server.url, roomId)).moves).toEqual([]);
  });

  it('SEAT_TAKEN for a held seat; NOT_ALLOWED for a second seat on one connection', async () => {
    const { roomId, watcher, goat } = await seatedRoom();
    expectError(await watcher.request('seat:claim', { roomId, side: 'goat' }), 'SEAT_TAKEN');
    expectError(await watcher.request('seat:claim', { roomId, side: 'tiger' }), 'SEAT_TAKEN');
    const room = await createRoom(server.url, { variant: 'bagh-chal', side: 'goat' });
    const player = await connect();
    await player.request('room:join', { roomId: room.roomId, seatToken: room.seatToken });
    expectError(await player.request('seat:claim', { roomId: room.roomId, side: 'tiger' }), 'NOT_ALLOWED');
    expect((await getSnapshot(server.url, room.roomId)).seats.tiger.taken).toBe(false);
    expect(goat.socket.connected).toBe(true);
  });

  it('NOT_YOUR_TURN, ILLEGAL_MOVE and STALE', async () => {
    const { roomId, goat, tiger } = await seatedRoom();
    expectError(await tiger.request('move', { roomId, move: 'a1-b1', ply: 0 }), 'NOT_YOUR_TURN');
    const syntax = expectError(await goat.request('move', { roomId, move: 'zz99', ply: 0 }), 'ILLEGAL_MOVE');
    expect(syntax.error.message).toContain('not a move');
    const rule = expectError(await goat.request('move', { roomId, move: 'b2-b3', ply: 0 }), 'ILLEGAL_MOVE');
    expect(rule.error.message).toContain('R11');
    expectError(await goat.request('move', { roomId, move: 'G@a1', ply: 0 }), 'ILLEGAL_MOVE');
    expectError(await goat.request('move', { roomId, move: 'G@c3', ply: 1 }), 'STALE');
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    expect(await tiger.request('move', { roomId, move: 'a1-b1', ply: 1 })).toMatchObject({ ok: true });
    // A move made against an older ply, which is not a resend of the sender's last move.
    expectError(await goat.request('move', { roomId, move: 'G@d3', ply: 1 }), 'STALE');
    expectError(await goat.request('move', { roomId, move: 'G@d3', ply: 0 }), 'STALE');
    expect((await getSnapshot(server.url, roomId)).moves).toEqual(['G@c3', 'a1-b1']);
  });

  it('GAME_OVER once the game has ended', async () => {
    const seated = await seatedRoom();
    const { roomId, goat, tiger } = seated;
    await playMoves(seated, BAGH_CHAL_TIGER_WIN);
    const ply = BAGH_CHAL_TIGER_WIN.length;
    expectError(await goat.request('move', { roomId, move: 'G@c3', ply }), 'GAME_OVER');
    expectError(await tiger.request('move', { roomId, move: 'a5-b5', ply }), 'GAME_OVER');
    expect((await getSnapshot(server.url, roomId)).moves).toHaveLength(ply);
  });

  it('a resent move is answered with its version and applied once', async () => {
    const { roomId, goat, tiger, watcher } = await seatedRoom();
    const first = await goat.request('move', { roomId, move: 'G@c3', ply: 0 });
    expect(first.ok).toBe(true);
    // The same move again (the ack was lost, say), also in another spelling of it.
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toEqual(first);
    expect(await goat.request('move', { roomId, move: 'c3', ply: 0 })).toEqual(first);
    // The other side sending that text for that ply is not a resend.
    expectError(await tiger.request('move', { roomId, move: 'G@c3', ply: 0 }), 'STALE');
    const second = await tiger.request('move', { roomId, move: 'a1-b1', ply: 1 });
    expect(second).toEqual({ ok: true, version: first.version + 1 });
    expect(await tiger.request('move', { roomId, move: 'a1b1', ply: 1 })).toEqual(second);
    // Only the latest move may be resent.
    expectError(await goat.request('move', { roomId, move: 'G@c3', ply: 0 }), 'STALE');
    await watcher.waitForVersion(second.version);
    await sleep(50);
    expect(movesSeen(watcher)).toEqual(['G@c3', 'a1-b1']);
    expect((await getSnapshot(server.url, roomId)).moves).toEqual(['G@c3', 'a1-b1']);
  });

  it('the seat race has exactly one winner', async () => {
    for (let round = 0; round < 5; round++) {
      const { roomId } = await createRoom(server.url, { variant: 'bagh-guti', side: 'tiger' });
      const racers = await Promise.all([connect(), connect(), connect()]);
      const acks = await Promise.all(racers.map((c) => c.request('seat:claim', { roomId, side: 'goat' })));
      const winners = acks.filter((a) => a.ok === true);
      expect(winners).toHaveLength(1);
      for (const loser of acks.filter((a) => a.ok !== true)) expectError(loser, 'SEAT_TAKEN');
      // The winning token is the one that works.
      const late = await connect();
      expect(await late.request('room:join', { roomId, seatToken: winners[0].seatToken })).toMatchObject({
        role: 'goat',
      });
    }
  });

  it('a claim tried again with its claimKey (its reply lost) gets the same token and the seat; another key does not', async () => {
    const { roomId } = await createRoom(server.url, { variant: 'bagh-chal', side: 'goat' });
    const claimKey = 'k'.repeat(22);
    const first = await connect();
    const claimed = await first.request('seat:claim', { roomId, side: 'tiger', claimKey });
    expect(claimed).toMatchObject({ ok: true });
    first.close(); // as if its reply never arrived: the page reloads, or its connection drops
    const again = await connect();
    const retried = await again.request('seat:claim', { roomId, side: 'tiger', claimKey });
    expect(retried).toMatchObject({ ok: true, seatToken: claimed.seatToken });
    expect(claimed.seatToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await getSnapshot(server.url, roomId)).seats.tiger).toMatchObject({
      taken: true,
      connected: true,
    });
    const other = await connect();
    expectError(
      await other.request('seat:claim', { roomId, side: 'tiger', claimKey: 'x'.repeat(22) }),
      'SEAT_TAKEN',
    );
    // The key is the room's and the side's: the same key claims nothing else.
    expectError(await other.request('seat:claim', { roomId, side: 'goat', claimKey }), 'SEAT_TAKEN');
    expectError(
      await other.request('seat:claim', { roomId, side: 'tiger', claimKey: 'short' }),
      'BAD_REQUEST',
    );
  });

  it('acks missing or not functions, unknown events and oversized messages do no harm', async () => {
    const { roomId, goat, watcher } = await seatedRoom();
    goat.socket.emit('move', { roomId, move: 'G@c3', ply: 0 });
    goat.socket.emit('move', { roomId, move: 'G@d3', ply: 1 }, 'not a function');
    goat.socket.emit('no-such-event', { roomId });
    goat.socket.emit('__proto__', { roomId });
    const unknownAck = goat.socket.timeout(300).emitWithAck('admin:reset', { roomId });
    await expect(unknownAck).rejects.toThrow();
    await watcher.waitFor((e) => e.type === 'move');
    expect((await getSnapshot(server.url, roomId)).moves).toEqual(['G@c3']);
    expect(goat.socket.connected).toBe(true);

    const flooder = await connect();
    const closed = new Promise<string>((resolve) => flooder.socket.once('disconnect', resolve));
    flooder.socket.emit('move', { roomId, move: 'x'.repeat(64 * 1024), ply: 1 });
    expect(await closed).toBeTruthy();
    // The server goes on serving everyone else.
    expect(await goat.request('room:join', { roomId })).toMatchObject({ ok: true, role: 'goat' });
  });

  it('a socket joined with its token holds the seat; without a token it watches', async () => {
    const {
      roomId,
      tokens: { goat: goatToken },
      goat,
    } = await seatedRoom();
    const secondTab = await connect();
    expect(await secondTab.request('room:join', { roomId, seatToken: goatToken })).toMatchObject({
      role: 'goat',
    });
    expect(await secondTab.request('move', { roomId, move: 'G@e3', ply: 0 })).toMatchObject({ ok: true });
    // Both tabs hold the seat: the goat stays connected while one of them is.
    goat.close();
    await sleep(100);
    expect((await getSnapshot(server.url, roomId)).seats.goat.connected).toBe(true);
    secondTab.close();
    await sleep(100);
    const snapshot = await getSnapshot(server.url, roomId);
    expect(snapshot.seats.goat).toEqual({ taken: true, connected: false });
    expect(snapshot.spectators).toBe(1);
  });
});

describe('error acks carry the room version', () => {
  it('a refusal by the room, or about a room the socket is in, carries its version; NOT_FOUND none', async () => {
    const { roomId, goat, tiger, watcher } = await seatedRoom();
    const { version } = await goat.request('move', { roomId, move: 'G@c3', ply: 0 });
    await watcher.waitForVersion(version);
    const refusals = [
      await tiger.request('move', { roomId, move: 'a1-b1', ply: 0 }), // STALE
      await goat.request('move', { roomId, move: 'G@d3', ply: 1 }), // NOT_YOUR_TURN
      await tiger.request('move', { roomId, move: 'b2-b3', ply: 1 }), // ILLEGAL_MOVE
      await watcher.request('move', { roomId, move: 'a1-b1', ply: 1 }), // UNAUTHORIZED
      await watcher.request('seat:claim', { roomId, side: 'goat' }), // SEAT_TAKEN
      await goat.request('draw:accept', { roomId }), // NOT_ALLOWED
      await goat.request('rematch:accept', { roomId }), // NOT_ALLOWED, by the rematch handler
      await goat.request('move', { roomId, move: 'G@d3', ply: 'one' }), // BAD_REQUEST, before the room
      await (await connect()).request('move', { roomId, move: 'G@d3', ply: 1 }), // a stranger: UNAUTHORIZED
    ];
    for (const ack of refusals) {
      expect(AckError.parse(ack), JSON.stringify(ack)).toMatchObject({ ok: false, version });
    }
    expect(refusals.map((ack) => ack.error.code)).toEqual([
      'STALE',
      'NOT_YOUR_TURN',
      'ILLEGAL_MOVE',
      'UNAUTHORIZED',
      'SEAT_TAKEN',
      'NOT_ALLOWED',
      'NOT_ALLOWED',
      'BAD_REQUEST',
      'UNAUTHORIZED',
    ]);
    const unknown = await goat.request('move', { roomId: 'no-such-room', move: 'G@c3', ply: 0 });
    expect(expectError(unknown, 'NOT_FOUND')).not.toHaveProperty('version');
    expect(expectError(await goat.request('move', null), 'BAD_REQUEST')).not.toHaveProperty('version');
  });

  it('RATE_LIMITED carries the version of a room the socket is in', async () => {
    const limited = await fixture.server({ options: { socketRateLimit: { refillPerSecond: 1, burst: 2 } } });
    const { roomId, seatToken } = await createRoom(limited.url, { variant: 'bagh-chal', side: 'goat' });
    const client = await connect(limited.url);
    const joined = await client.request('room:join', { roomId, seatToken });
    const acks = await Promise.all([1, 2, 3].map(() => client.request('resign', { roomId })));
    const refused = acks.filter((ack) => ack.ok === false && ack.error.code === 'RATE_LIMITED');
    expect(refused.length).toBeGreaterThan(0);
    for (const ack of refused) expect(ack.version).toBeGreaterThanOrEqual(joined.snapshot.version);
  });
});

describe('closed enums', () => {
  it("a result's reason and a chat message's from take only the values the server sends", () => {
    expect(GameResult.safeParse({ winner: 'tiger', reason: 'resign' }).success).toBe(true);
    expect(GameResult.safeParse({ winner: 'goat', reason: '' }).success).toBe(true);
    expect(GameResult.safeParse({ winner: 'tiger', reason: 'resigned' }).success).toBe(false);
    expect(GameResult.safeParse({ winner: null, reason: 'disconnected' }).success).toBe(false);
  });

  it('every result and chat message the server sends parses with the closed schemas', async () => {
    const { roomId, goat, tiger, watcher } = await seatedRoom();
    const chatted = new Promise((resolve) => watcher.socket.once('chat:message', resolve));
    expect((await tiger.request('chat:send', { roomId, channel: 'players', text: 'gl' })).ok).toBe(true);
    expect((await chatted) as object).toMatchObject({ from: 'tiger' });
    const { version } = await goat.request('resign', { roomId });
    const ended = await watcher.waitForVersion(version);
    expect(Snapshot.parse(ended.snapshot).result).toEqual({ winner: 'tiger', reason: 'resign' });
    const joined = await watcher.request('room:join', { roomId });
    expect(Snapshot.parse(joined.snapshot).result?.reason).toBe('resign');
  });
});

describe('leaving', () => {
  it('room:leave stops the events and frees the socket from its seat, not the seat', async () => {
    const {
      roomId,
      goat,
      tokens: { goat: goatToken },
      watcher,
    } = await seatedRoom();
    expect(await goat.request('room:leave', { roomId })).toEqual({ ok: true });
    expect(await goat.request('room:leave', { roomId })).toEqual({ ok: true });
    const gone = await watcher.waitFor((e) => e.type === 'presence' && !e.snapshot.seats.goat.connected);
    expect(gone.snapshot.seats.goat.taken).toBe(true);
    expectError(await goat.request('move', { roomId, move: 'G@c3', ply: 0 }), 'UNAUTHORIZED');
    const seen = goat.events.length;
    const back = await connect();
    await back.request('room:join', { roomId, seatToken: goatToken });
    expect(await back.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    await watcher.waitFor((e) => e.type === 'move');
    await sleep(50);
    expect(goat.events.length).toBe(seen);
  });
});

describe('per-socket rate limit', () => {
  it('RATE_LIMITED beyond the burst, and limited events change nothing', async () => {
    const limited = await fixture.server({ options: { socketRateLimit: { refillPerSecond: 1, burst: 5 } } });
    const { roomId, seatToken } = await createRoom(limited.url, { variant: 'bagh-chal', side: 'goat' });
    const client = await connect(limited.url);
    expect((await client.request('room:join', { roomId, seatToken })).ok).toBe(true);
    const acks = await Promise.all(
      ['G@a2', 'G@a3', 'G@a4', 'G@b2', 'G@b3', 'G@b4', 'G@c2', 'G@c3'].map((move) =>
        client.request('move', { roomId, move, ply: 0 }),
      ),
    );
    const limitedAcks = acks.filter((a) => a.ok === false && a.error.code === 'RATE_LIMITED');
    expect(limitedAcks.length).toBeGreaterThanOrEqual(4);
    expect(acks.filter((a) => a.ok === true)).toHaveLength(1);
    expect((await getSnapshot(limited.url, roomId)).moves).toEqual(['G@a2']);
  });

  it('a burst of 100 events, each sent when the last was answered, is not limited', async () => {
    const { roomId } = await seatedRoom();
    const fresh = await connect();
    // Only a client sustaining more than 20 events/s past a burst of 100 is limited.
    for (let i = 0; i < 100; i++) expect((await fresh.request('room:join', { roomId })).ok).toBe(true);
  });
});
