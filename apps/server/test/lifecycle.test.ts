/**
 * Issue 5, the game lifecycle, through real sockets: resign, abort, draws, clocks, abandonment,
 * rematch, chat, the live list, record export/import, and clocks across a restart.
 */
import {
  type ChatMessage,
  MAX_PLIES,
  type RoomEvent,
  type SeatAssigned,
  type Snapshot,
} from '@bagh/protocol';
import { gameFromMoves, makeRecord } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import {
  type Client,
  expectError,
  getSnapshot,
  perTest,
  playMoves,
  sharedServer,
  sleep,
  type Table,
  waitUntil,
} from './helpers.js';
import { BAGH_CHAL_TIGER_WIN, baghGutiLoop } from './lines.js';

const GRACE_MS = 200;
// Every room and import of this file comes from one address: room creation's own limit is tested elsewhere.
const server = sharedServer({ abandonGraceMs: GRACE_MS, roomCreationPerMinute: 1000 });
const fixture = perTest();

const client = (url = server.url): Promise<Client> => fixture.client(url);

/** A room with the goat (creator), the tiger (claimed) and a spectator, all joined. */
const table = (body: Record<string, unknown> = {}, url = server.url): Promise<Table> =>
  fixture.table(url, body);

const lastEvent = (c: Client): RoomEvent => c.events[c.events.length - 1]!;

describe('resign', () => {
  it('ends the game for the other side; spectators cannot, and nothing moves after', async () => {
    const t = await table();
    await playMoves(t, ['G@c3']);
    expectError(await t.watcher.request('resign', { roomId: t.roomId }), 'UNAUTHORIZED');
    const ack = await t.tiger.request('resign', { roomId: t.roomId });
    expect(ack).toEqual({ ok: true, version: expect.any(Number) });
    const seen = await t.watcher.waitForVersion(ack.version);
    expect(seen).toMatchObject({
      type: 'result',
      snapshot: { result: { winner: 'goat', reason: 'resign' } },
    });
    expectError(await t.tiger.request('move', { roomId: t.roomId, move: 'a1-b1', ply: 1 }), 'GAME_OVER');
    expectError(await t.goat.request('resign', { roomId: t.roomId }), 'GAME_OVER');
    expectError(await t.goat.request('resign', { roomId: 'x' }), 'NOT_FOUND');
    expectError(await t.goat.request('resign', { roomId: 5 }), 'BAD_REQUEST');
  });
});

describe('abort', () => {
  it('is allowed while a side has not moved, and NOT_ALLOWED once both have', async () => {
    const early = await table();
    await playMoves(early, ['G@c3']);
    const ack = await early.tiger.request('abort', { roomId: early.roomId });
    expect(ack.ok).toBe(true);
    expect((await getSnapshot(server.url, early.roomId)).result).toEqual({ winner: null, reason: 'aborted' });

    const late = await table();
    await playMoves(late, ['G@c3', 'a1-b1']);
    expectError(await late.goat.request('abort', { roomId: late.roomId }), 'NOT_ALLOWED');
    expectError(await late.watcher.request('abort', { roomId: late.roomId }), 'UNAUTHORIZED');
    expect((await getSnapshot(server.url, late.roomId)).result).toBeNull();
  });
});

describe('draw offers', () => {
  it('offer and decline, offer and accept (agreement); accepting no offer is NOT_ALLOWED', async () => {
    const t = await table();
    expectError(await t.tiger.request('draw:accept', { roomId: t.roomId }), 'NOT_ALLOWED');
    expectError(await t.tiger.request('draw:decline', { roomId: t.roomId }), 'NOT_ALLOWED');
    const offered = await t.goat.request('draw:offer', { roomId: t.roomId });
    expect(offered.ok).toBe(true);
    expect((await t.watcher.waitForVersion(offered.version)).snapshot.drawOffer).toBe('goat');
    // The offerer cannot accept their own offer.
    expectError(await t.goat.request('draw:accept', { roomId: t.roomId }), 'NOT_ALLOWED');
    const declined = await t.tiger.request('draw:decline', { roomId: t.roomId });
    expect(declined.ok).toBe(true);
    expect((await t.watcher.waitForVersion(declined.version)).snapshot).toMatchObject({
      drawOffer: null,
      result: null,
    });

    await t.tiger.request('draw:offer', { roomId: t.roomId });
    const accepted = await t.goat.request('draw:accept', { roomId: t.roomId });
    expect(accepted.ok).toBe(true);
    expect((await t.watcher.waitForVersion(accepted.version)).snapshot).toMatchObject({
      drawOffer: null,
      result: { winner: null, reason: 'agreement' },
    });
    expectError(await t.tiger.request('draw:offer', { roomId: t.roomId }), 'GAME_OVER');
  });

  it("an offer lapses when the offerer's opponent moves, not when the offerer does", async () => {
    const t = await table();
    await t.goat.request('draw:offer', { roomId: t.roomId });
    await playMoves(t, ['G@c3']);
    expect((await getSnapshot(server.url, t.roomId)).drawOffer).toBe('goat');
    await playMoves(t, ['a1-b1'], 1);
    expect((await getSnapshot(server.url, t.roomId)).drawOffer).toBeNull();
    expectError(await t.tiger.request('draw:accept', { roomId: t.roomId }), 'NOT_ALLOWED');
  });
});

describe('clocks', () => {
  it('a side whose time runs out loses on time (the flag timer), its clock at 0', async () => {
    const t = await table({ clock: { initialMs: 300, incrementMs: 0 } });
    const start = await getSnapshot(server.url, t.roomId);
    expect(start.clock).toEqual({ tiger: 300, goat: 300, running: null });
    expect(start.timeControl).toEqual({ initialMs: 300, incrementMs: 0 });
    await playMoves(t, ['G@c3']); // the first move starts the tiger's clock
    const ended = await t.watcher.waitFor((e) => e.type === 'result');
    expect(ended.snapshot.result).toEqual({ winner: 'goat', reason: 'timeout' });
    expect(ended.snapshot.clock).toMatchObject({ tiger: 0, goat: 300, running: null });
    expectError(await t.tiger.request('move', { roomId: t.roomId, move: 'a1-b1', ply: 1 }), 'GAME_OVER');
  });

  it('a room left by everyone while its clock runs stays in memory: its game ends on time, and is archived', async () => {
    const own = await fixture.server({ options: { roomIdleMs: 20 } });
    const t = await fixture.table(own.url, { clock: { initialMs: 2_500, incrementMs: 0 } });
    await playMoves(t, ['G@c3']); // the tiger's clock runs
    for (const c of [t.goat, t.tiger, t.watcher]) c.close();
    await sleep(1_500); // idle well past roomIdleMs, swept every second
    expect(own.app.rooms.liveRooms).toBe(1);
    await waitUntil(() => own.app.rooms.liveRooms === 0, 10_000); // flagged, then swept
    const archived = (await (await fetch(`${own.url}/api/games`)).json()) as {
      games: { roomId: string; result: unknown }[];
    };
    expect(archived.games).toEqual([
      expect.objectContaining({ roomId: t.roomId, result: { winner: 'goat', reason: 'timeout' } }),
    ]);
  });

  it("a move deducts the mover's time and adds the increment; the other clock runs", async () => {
    const t = await table({ clock: { initialMs: 60_000, incrementMs: 2_000 } });
    const goatMoving = Date.now();
    await playMoves(t, ['G@c3']);
    await sleep(120);
    const version = await playMoves(t, ['a1-b1'], 1);
    const tigerThought = Date.now() - goatMoving; // at least what the server counted
    const seen = (await t.watcher.waitForVersion(version)).snapshot;
    expect(seen.clock!.running).toBe('goat');
    expect(seen.clock!.goat).toBe(60_000); // the first move is free
    expect(seen.clock!.tiger).toBeGreaterThanOrEqual(60_000 + 2_000 - tigerThought);
    expect(seen.clock!.tiger).toBeLessThanOrEqual(60_000 + 2_000 - 120);
    // A later snapshot shows the goat's clock running down from the move's time.
    await sleep(50);
    const later = await getSnapshot(server.url, t.roomId);
    expect(later.at).toBeGreaterThan(seen.at);
    expect(later.clock!.goat).toBeLessThan(60_000);
    expect(later.clock!.tiger).toBe(seen.clock!.tiger);
  });
});

describe('abandonment', () => {
  it('the opponent may claim once the grace period is over, not before', async () => {
    const t = await table();
    await playMoves(t, ['G@c3', 'a1-b1']);
    t.tiger.close();
    const gone = await t.goat.waitFor((e) => e.type === 'presence' && !e.snapshot.seats.tiger.connected);
    expect(gone.snapshot.abandon).toMatchObject({ side: 'tiger', claimable: false });
    expect(gone.snapshot.abandon!.claimableAt - gone.snapshot.abandon!.goneSince).toBe(GRACE_MS);
    expectError(await t.goat.request('abandon:claim', { roomId: t.roomId, outcome: 'win' }), 'NOT_ALLOWED');
    expectError(
      await t.watcher.request('abandon:claim', { roomId: t.roomId, outcome: 'win' }),
      'UNAUTHORIZED',
    );
    expectError(await t.goat.request('abandon:claim', { roomId: t.roomId, outcome: 'lose' }), 'BAD_REQUEST');
    // The abandonment timer tells everyone when the claim becomes possible.
    const ready = await t.watcher.waitFor((e) => e.snapshot.abandon?.claimable === true);
    expect(ready.type).toBe('presence');
    const claimed = await t.goat.request('abandon:claim', { roomId: t.roomId, outcome: 'win' });
    expect(claimed.ok).toBe(true);
    expect((await t.watcher.waitForVersion(claimed.version)).snapshot).toMatchObject({
      result: { winner: 'goat', reason: 'abandoned' },
      abandon: null,
    });
  });

  it('a claim may be a draw', async () => {
    const t = await table();
    t.goat.close();
    await t.tiger.waitFor((e) => e.snapshot.abandon?.claimable === true);
    const claimed = await t.tiger.request('abandon:claim', { roomId: t.roomId, outcome: 'draw' });
    expect(claimed.ok).toBe(true);
    expect((await getSnapshot(server.url, t.roomId)).result).toEqual({ winner: null, reason: 'abandoned' });
  });

  it('a player who returns in time just continues', async () => {
    const t = await table();
    await playMoves(t, ['G@c3']);
    t.tiger.close();
    await t.goat.waitFor((e) => e.snapshot.abandon?.side === 'tiger');
    await sleep(GRACE_MS / 4);
    const back = await client();
    const joined = await back.request('room:join', { roomId: t.roomId, seatToken: t.tokens.tiger });
    expect(joined).toMatchObject({ role: 'tiger', snapshot: { abandon: null } });
    await sleep(GRACE_MS * 1.5);
    expectError(await t.goat.request('abandon:claim', { roomId: t.roomId, outcome: 'win' }), 'NOT_ALLOWED');
    expect(await back.request('move', { roomId: t.roomId, move: 'a1-b1', ply: 1 })).toMatchObject({
      ok: true,
    });
    expect((await getSnapshot(server.url, t.roomId)).result).toBeNull();
  });
});

describe('rematch', () => {
  it('offer and accept: a new room, sides swapped, each player told privately; spectators see where', async () => {
    const t = await table({ clock: { initialMs: 120_000, incrementMs: 1_000 }, public: true });
    const assigned: { goat: SeatAssigned[]; tiger: SeatAssigned[]; watcher: SeatAssigned[] } = {
      goat: [],
      tiger: [],
      watcher: [],
    };
    t.goat.socket.on('seat:assigned', (a: SeatAssigned) => assigned.goat.push(a));
    t.tiger.socket.on('seat:assigned', (a: SeatAssigned) => assigned.tiger.push(a));
    t.watcher.socket.on('seat:assigned', (a: SeatAssigned) => assigned.watcher.push(a));

    expectError(await t.goat.request('rematch:offer', { roomId: t.roomId }), 'NOT_ALLOWED'); // in play
    await playMoves(t, ['G@c3']);
    await t.goat.request('resign', { roomId: t.roomId });
    expectError(await t.tiger.request('rematch:accept', { roomId: t.roomId }), 'NOT_ALLOWED'); // no offer
    const offered = await t.goat.request('rematch:offer', { roomId: t.roomId });
    expect(offered.ok).toBe(true);
    expect((await t.watcher.waitForVersion(offered.version)).snapshot.rematch).toEqual({ offeredBy: 'goat' });
    expectError(await t.goat.request('rematch:accept', { roomId: t.roomId }), 'NOT_ALLOWED');
    expectError(await t.watcher.request('rematch:accept', { roomId: t.roomId }), 'UNAUTHORIZED');

    const accepted = await t.tiger.request('rematch:accept', { roomId: t.roomId });
    expect(accepted).toEqual({ ok: true, version: expect.any(Number), roomId: expect.any(String) });
    const newRoom: string = accepted.roomId;
    expect(newRoom).not.toBe(t.roomId);
    const seen = await t.watcher.waitForVersion(accepted.version);
    expect(seen.snapshot.rematch).toEqual({ offeredBy: 'goat', roomId: newRoom });
    await sleep(50);
    expect(assigned.goat).toEqual([{ roomId: newRoom, side: 'tiger', seatToken: expect.any(String) }]);
    expect(assigned.tiger).toEqual([{ roomId: newRoom, side: 'goat', seatToken: expect.any(String) }]);
    expect(assigned.watcher).toEqual([]);
    // The tokens never appear in a broadcast.
    const publicText = [...t.watcher.raw, ...t.goat.raw].join('\n');
    expect(publicText).not.toContain(assigned.goat[0]!.seatToken);
    expectError(await t.goat.request('rematch:offer', { roomId: t.roomId }), 'NOT_ALLOWED');

    const next: Snapshot = await getSnapshot(server.url, newRoom);
    expect(next).toMatchObject({
      variant: 'bagh-chal',
      moves: [],
      result: null,
      public: true,
      timeControl: { initialMs: 120_000, incrementMs: 1_000 },
      seats: { tiger: { taken: true, connected: false }, goat: { taken: true, connected: false } },
    });
    const formerGoat = await t.goat.request('room:join', {
      roomId: newRoom,
      seatToken: assigned.goat[0]!.seatToken,
    });
    const formerTiger = await t.tiger.request('room:join', {
      roomId: newRoom,
      seatToken: assigned.tiger[0]!.seatToken,
    });
    expect(formerGoat.role).toBe('tiger');
    expect(formerTiger.role).toBe('goat');
    expect(await t.tiger.request('move', { roomId: newRoom, move: 'G@c3', ply: 0 })).toMatchObject({
      ok: true,
    });
  });
});

describe('chat', () => {
  it("players' channel to everyone, spectators' channel to spectators only; kept and replayed on join", async () => {
    const t = await table();
    const watcher2 = await client();
    await watcher2.request('room:join', { roomId: t.roomId });
    const inbox = new Map<Client, ChatMessage[]>();
    for (const c of [t.goat, t.tiger, t.watcher, watcher2]) {
      inbox.set(c, []);
      c.socket.on('chat:message', (m: ChatMessage) => inbox.get(c)!.push(m));
    }
    const sent = await t.goat.request('chat:send', {
      roomId: t.roomId,
      channel: 'players',
      text: '  good luck  ',
    });
    expect(sent).toEqual({ ok: true, version: expect.any(Number) });
    const whisper = await t.watcher.request('chat:send', {
      roomId: t.roomId,
      channel: 'spectators',
      text: 'goat is doomed',
    });
    expect(whisper.ok).toBe(true);
    expectError(
      await t.watcher.request('chat:send', { roomId: t.roomId, channel: 'players', text: 'hi' }),
      'UNAUTHORIZED',
    );
    expectError(
      await t.tiger.request('chat:send', { roomId: t.roomId, channel: 'spectators', text: 'hi' }),
      'UNAUTHORIZED',
    );
    expectError(
      await t.tiger.request('chat:send', { roomId: t.roomId, channel: 'players', text: '   ' }),
      'BAD_REQUEST',
    );
    expectError(
      await t.tiger.request('chat:send', { roomId: t.roomId, channel: 'players', text: 'x'.repeat(501) }),
      'BAD_REQUEST',
    );
    await t.watcher.waitForVersion(whisper.version);
    await sleep(50);

    const hello = {
      roomId: t.roomId,
      channel: 'players',
      from: 'goat',
      text: 'good luck',
      at: expect.any(Number),
    };
    const aside = { roomId: t.roomId, channel: 'spectators', from: 'spectator', text: 'goat is doomed' };
    expect(inbox.get(t.goat)).toEqual([hello]);
    expect(inbox.get(t.tiger)).toEqual([hello]);
    expect(inbox.get(t.watcher)).toEqual([hello, expect.objectContaining(aside)]);
    expect(inbox.get(watcher2)).toEqual([hello, expect.objectContaining(aside)]);
    // Versions stay contiguous for everyone; the room event carries no chat text.
    expect(lastEvent(t.goat)).toMatchObject({ type: 'chat', version: whisper.version });
    expect(t.goat.raw.join('\n')).not.toContain('doomed');

    // Kept with the game: a later join gets what its role may read.
    const late = await client();
    const asSpectator = await late.request('room:join', { roomId: t.roomId });
    expect(asSpectator.chat).toEqual([hello, expect.objectContaining(aside)]);
    const rejoined = await late.request('room:join', { roomId: t.roomId, seatToken: t.tokens.goat });
    expect(rejoined.chat).toEqual([hello]);
  });

  it('is rate-limited per seat', async () => {
    const t = await table();
    const codes: string[] = [];
    for (let i = 0; i < 7; i++) {
      const ack = await t.goat.request('chat:send', { roomId: t.roomId, channel: 'players', text: `m${i}` });
      codes.push(ack.ok ? 'ok' : ack.error.code);
    }
    expect(codes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'RATE_LIMITED', 'RATE_LIMITED']);
  });
});

describe('GET /api/live', () => {
  it('lists public rooms in play, never private ones, and drops a finished game', async () => {
    const open = await table({ public: true, clock: { initialMs: 300_000, incrementMs: 3_000 } });
    const hidden = await table({ public: false });
    await playMoves(open, ['G@c3', 'a1-b1']);
    const list = async () =>
      ((await (await fetch(`${server.url}/api/live`)).json()) as { rooms: { roomId: string }[] }).rooms;
    const live = await list();
    const entry = live.find((r) => r.roomId === open.roomId);
    expect(entry).toEqual({
      roomId: open.roomId,
      variant: 'bagh-chal',
      seats: { tiger: { taken: true, connected: true }, goat: { taken: true, connected: true } },
      moves: 2,
      spectators: 1,
      timeControl: { initialMs: 300_000, incrementMs: 3_000 },
      createdAt: expect.any(Number),
    });
    expect(live.some((r) => r.roomId === hidden.roomId)).toBe(false);
    await open.goat.request('resign', { roomId: open.roomId });
    expect((await list()).some((r) => r.roomId === open.roomId)).toBe(false);
  });
});

describe('game records', () => {
  const recordOf = async (roomId: string) => {
    const response = await fetch(`${server.url}/api/rooms/${roomId}/record`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    return response.text();
  };
  const importRecord = (record: unknown) =>
    fetch(`${server.url}/api/records`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ record }),
    });
  /** The moves and result lines of a record (the headers other than the room's). */
  const gameOf = (record: string) =>
    record
      .split('\n')
      .filter((line) => !line.startsWith('[Room ') && !line.startsWith('[Date '))
      .join('\n');

  it('export then import reproduces the game, with a result decided by the room', async () => {
    const t = await table();
    await playMoves(t, ['G@c3', 'a1-b1', 'G@d3']);
    await t.tiger.request('resign', { roomId: t.roomId });
    const record = await recordOf(t.roomId);
    expect(record).toContain('[Variant "bagh-chal"]');
    expect(record).toContain('[Result "goat"]');
    expect(record).toContain('[Termination "resign"]');
    expect(record).toContain('1. G@c3 a1-b1 2. G@d3 goat');

    const response = await importRecord(record);
    expect(response.status).toBe(201);
    const { roomId, url } = (await response.json()) as { roomId: string; url: string };
    expect(url).toBe(`/r/${roomId}`);
    const replay = await getSnapshot(server.url, roomId);
    expect(replay).toMatchObject({
      moves: ['G@c3', 'a1-b1', 'G@d3'],
      result: { winner: 'goat', reason: 'resign' },
      imported: true,
      public: false,
    });
    expect(gameOf(await recordOf(roomId))).toBe(gameOf(record));
    // A replay has no seats to take.
    const visitor = await client();
    expectError(await visitor.request('seat:claim', { roomId, side: 'tiger' }), 'NOT_ALLOWED');
  });

  it('a game ended by the rules, and an unfinished one, round-trip too', async () => {
    const t = await table();
    await playMoves(t, BAGH_CHAL_TIGER_WIN);
    const record = await recordOf(t.roomId);
    const { roomId } = (await (await importRecord(record)).json()) as { roomId: string };
    expect((await getSnapshot(server.url, roomId)).result).toEqual({ winner: 'tiger', reason: 'captures' });
    expect(gameOf(await recordOf(roomId))).toBe(gameOf(record));

    const open = await table();
    await playMoves(open, ['G@c3']);
    const unfinished = await recordOf(open.roomId);
    expect(unfinished).toContain('[Result "*"]');
    const imported = (await (await importRecord(unfinished)).json()) as { roomId: string };
    expect(await getSnapshot(server.url, imported.roomId)).toMatchObject({
      moves: ['G@c3'],
      result: null,
      imported: true,
    });
  });

  it('a record with its own start position: the snapshot names it, and only then', async () => {
    const start = 'T3T/5/2G2/5/T3T t 19 0';
    const played = gameFromMoves({ variant: 'bagh-chal', start, moves: ['a1-b1', 'G@d3'] });
    if (!played.ok) throw new Error(played.error.message);
    const record = makeRecord(played.value);
    expect(record).toContain(`[Position "${start}"]`);
    const response = await importRecord(record);
    expect(response.status).toBe(201);
    const { roomId } = (await response.json()) as { roomId: string };
    const replay = await getSnapshot(server.url, roomId);
    expect(replay).toMatchObject({ start, moves: ['a1-b1', 'G@d3'], imported: true });
    expect(replay.position).toBe('T3T/5/2GG1/5/1T2T t 18 0');

    const t = await table();
    await playMoves(t, ['G@c3']);
    const fromTheStart = (await (await importRecord(await recordOf(t.roomId))).json()) as { roomId: string };
    expect(await getSnapshot(server.url, fromTheStart.roomId)).not.toHaveProperty('start');
    expect(await getSnapshot(server.url, t.roomId)).not.toHaveProperty('start');
  });

  it('the longest game a room keeps round-trips; a record of more moves is 400', async () => {
    const longest = baghGutiLoop(MAX_PLIES);
    const game = gameFromMoves({ variant: 'bagh-guti', moves: longest });
    if (!game.ok) throw new Error(game.error.message);
    const record = makeRecord(game.value, { result: { winner: 'goat', reason: 'resign' } });
    expect(record.length).toBeGreaterThan(16_000); // past every other body's limit
    const response = await importRecord(record);
    expect(response.status).toBe(201);
    const { roomId } = (await response.json()) as { roomId: string };
    expect(gameOf(await recordOf(roomId))).toBe(gameOf(record));
    const longer = await importRecord(record.replace(' goat\n', ' c3-c2 goat\n'));
    expect(longer.status).toBe(400);
    const body = (await longer.json()) as { error: { message: string } };
    expect(body.error.message).toBe(`${MAX_PLIES + 1} moves; at most ${MAX_PLIES} are taken`);
  });

  it("a bad record is 400 BAD_REQUEST with the parser's message", async () => {
    const bad = await importRecord('[Variant "bagh-chal"]\n\n1. G@c3 a1xe5 *\n');
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.error.message).toMatch(/move 2 \(a1xe5\)/);
    expect((await importRecord('')).status).toBe(400);
    expect((await importRecord('[Variant "chess"]\n\n*')).status).toBe(400);
    expect((await fetch(`${server.url}/api/rooms/abcdefghijkl/record`)).status).toBe(404);
  });

  it('a Termination the server does not know is 400 BAD_REQUEST naming it (RULES.md R42: the reason)', async () => {
    const record = (termination: string) =>
      `[Variant "bagh-chal"]\n[Result "goat"]\n[Termination "${termination}"]\n\n1. G@c3 a1-b1 goat\n`;
    const refused = await importRecord(record('hacked\u202Egnp.exe'));
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.error.message).toMatch(/Termination/);
    expect(body.error.message).toContain('resign');
    // A rules' reason the moves do not reach (two plies, nothing captured) is refused too.
    expect((await importRecord(record('captures'))).status).toBe(400);
    const known = await importRecord(record('timeout'));
    expect(known.status).toBe(201);
    const { roomId } = (await known.json()) as { roomId: string };
    expect((await getSnapshot(server.url, roomId)).result).toEqual({ winner: 'goat', reason: 'timeout' });
  });
});

describe('restart', () => {
  it('a timed game keeps its remaining times, draw offer and chat across a restart', async () => {
    const dataDir = fixture.dataDir();
    const first = await fixture.server({ dataDir });
    const t = await table({ clock: { initialMs: 90_000, incrementMs: 5_000 } }, first.url);
    await playMoves(t, ['G@c3', 'a1-b1', 'G@d3']);
    await t.tiger.request('draw:offer', { roomId: t.roomId });
    await t.goat.request('chat:send', { roomId: t.roomId, channel: 'players', text: 'brb' });
    const before = await getSnapshot(first.url, t.roomId);
    expect(before.clock!.running).toBe('tiger');
    await first.close();

    const second = await fixture.server({ dataDir });
    const after = await getSnapshot(second.url, t.roomId);
    expect(after.moves).toEqual(['G@c3', 'a1-b1', 'G@d3']);
    expect(after.timeControl).toEqual({ initialMs: 90_000, incrementMs: 5_000 });
    expect(after.drawOffer).toBe('tiger');
    expect(after.clock!.running).toBe('tiger');
    expect(after.clock!.goat).toBe(before.clock!.goat); // not running: exactly as it was
    expect(after.clock!.tiger).toBeLessThanOrEqual(before.clock!.tiger);
    expect(after.clock!.tiger).toBeGreaterThanOrEqual(before.clock!.tiger - (Date.now() - before.at) - 5);
    const goat = await client(second.url);
    const joined = await goat.request('room:join', { roomId: t.roomId, seatToken: t.tokens.goat });
    expect(joined.chat).toEqual([expect.objectContaining({ from: 'goat', text: 'brb' })]);
  });
});
