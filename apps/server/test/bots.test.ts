/**
 * Rooms against the computer, end to end over real sockets: the bot seat in the snapshot, its
 * answers (legal, in budget, contiguous versions), a resign that beats it to the move, a restart
 * in the middle of its turn, and the rematch; its searches, made only while the player is here,
 * stopped when nobody wants them, and shared fairly between rooms.
 */
import { LEVEL_SETTINGS, LEVELS } from '@bagh/engine';
import { BOT_LEVELS, type RoomEvent, type Snapshot } from '@bagh/protocol';
import { createGame, type Game, legalMoves, makeMove, playMoveTexts } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import type { AppOptions } from '../src/app.js';
import type { Config } from '../src/config.js';
import {
  type Client,
  createRoom,
  expectError,
  getSnapshot,
  perTest,
  sleep,
  type TestServer,
  waitUntil,
} from './helpers.js';

const fixture = perTest();

const MIN_DELAY = 50;

function server(options: AppOptions = {}, dataDir?: string, config?: Partial<Config>): Promise<TestServer> {
  return fixture.server({
    ...(dataDir ? { dataDir } : {}),
    options: { botMinDelayMs: MIN_DELAY, ...options },
    ...(config ? { config } : {}),
  });
}

/** A room against the computer at `bot` level, the player holding `side`. */
const botRoom = (url: string, side: 'goat' | 'tiger', bot: string) =>
  createRoom(url, { variant: 'bagh-chal', side, opponent: { bot } });

/** The player of a room made by `botRoom`, connected and joined with its seat token. */
async function player(url: string, created: { roomId: string; seatToken: string }) {
  const client = await fixture.client(url);
  const joined = await client.request('room:join', { roomId: created.roomId, seatToken: created.seatToken });
  return { client, joined, roomId: created.roomId };
}

function gameOf(moves: readonly string[]): Game {
  const start = createGame('bagh-chal');
  if (!start.ok) throw new Error(start.error.message);
  const played = playMoveTexts(start.value, moves);
  if (!played.ok) throw new Error(played.error.message);
  return played.value;
}

/** Some legal move for the side to move (the `pick`th, wrapping round). */
function goatMove(moves: readonly string[], pick: number): string {
  const legal = legalMoves(gameOf(moves));
  return makeMove(legal[pick % legal.length]!);
}

describe('a room against the computer', () => {
  it("offers the engine's levels, no more and no fewer (the protocol lists them without importing the engine)", () => {
    expect(BOT_LEVELS).toEqual(LEVELS);
  });

  it('seats the bot, which answers every move through room:event, legally and after its least delay', async () => {
    const { url } = await server();
    const created = await botRoom(url, 'goat', 'beginner');
    expect(created.side).toBe('goat');
    const snapshot = await getSnapshot(url, created.roomId);
    expect(snapshot.seats).toEqual({
      tiger: { taken: true, connected: true, bot: 'beginner' },
      goat: { taken: true, connected: false },
    });

    const { client: goat, joined, roomId } = await player(url, created);
    expect(joined).toMatchObject({ ok: true, role: 'goat' });
    // The bot's seat cannot be claimed, and it takes no draws.
    const other = await fixture.client(url);
    expectError(await other.request('seat:claim', { roomId, side: 'tiger' }), 'SEAT_TAKEN');
    expectError(await goat.request('draw:offer', { roomId }), 'NOT_ALLOWED');

    let moves: string[] = [];
    for (let turn = 0; turn < 6; turn++) {
      const text = goatMove(moves, turn * 3);
      const sent = performance.now();
      const ack = await goat.request('move', { roomId, move: text, ply: moves.length });
      expect(ack).toMatchObject({ ok: true });
      const reply = await goat.waitFor(
        (e) => e.type === 'move' && e.side === 'tiger' && e.version > ack.version,
      );
      // Never sooner than its least delay; its budget is the engine's (tested there with a clock).
      expect(performance.now() - sent).toBeGreaterThanOrEqual(MIN_DELAY - 5);
      // Legal: it replays with the rules from the position the bot saw.
      expect(legalMoves(gameOf([...moves, text])).map(makeMove)).toContain(reply.move);
      moves = reply.snapshot.moves;
      expect(moves).toHaveLength(2 * (turn + 1));
      if (reply.snapshot.result) break;
    }
    const versions = goat.events.map((e) => e.version);
    const first = versions[0]!;
    expect(versions).toEqual(versions.map((_, i) => first + i));
    const final = await getSnapshot(url, roomId);
    expect(final.moves).toEqual(moves);
    expect(final.seats.tiger.bot).toBe('beginner');
  });

  it('moves first when it holds the side that opens', async () => {
    const { url } = await server();
    const { client: tiger } = await player(url, await botRoom(url, 'tiger', 'casual'));
    const bot = await tiger.waitFor((e) => e.type === 'move');
    expect(bot.side).toBe('goat');
    expect(bot.move).toMatch(/^G@/);
    expect(bot.snapshot.seats.goat).toEqual({ taken: true, connected: true, bot: 'casual' });
  });

  it('does nothing when the player resigns before its answer', async () => {
    const { url } = await server({ botMinDelayMs: 600 });
    const { client: goat, roomId } = await player(url, await botRoom(url, 'goat', 'beginner'));
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    expect(await goat.request('resign', { roomId })).toMatchObject({ ok: true });
    await sleep(LEVEL_SETTINGS.beginner.budgetMs + 600 + 300);
    const last = goat.events.at(-1)!;
    expect(last.type).toBe('result');
    expect(last.snapshot.result).toEqual({ winner: 'tiger', reason: 'resign' });
    expect(goat.events.filter((e) => e.type === 'move').map((e) => e.side)).toEqual(['goat']);
    const snapshot = await getSnapshot(url, roomId);
    expect(snapshot.moves).toEqual(['G@c3']);
    expect(snapshot.version).toBe(last.version);
  });

  it('resumes its turn after a restart', async () => {
    const dataDir = fixture.dataDir();
    // A long least delay: the server stops while the bot still "thinks".
    const first = await server({ botMinDelayMs: 5000 }, dataDir);
    const created = await botRoom(first.url, 'goat', 'strong');
    const { client: goat, roomId } = await player(first.url, created);
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    await first.close();
    goat.close();

    const second = await server({}, dataDir);
    // Loaded (a link opened) while its player is away: no search until they are back.
    expect((await getSnapshot(second.url, roomId)).moves).toEqual(['G@c3']);
    expect(second.app.bots.searches + second.app.bots.queued).toBe(0);
    const again = await fixture.client(second.url);
    const joined = await again.request('room:join', { roomId, seatToken: created.seatToken });
    expect(joined).toMatchObject({ ok: true, role: 'goat' });
    const snap = joined.snapshot as Snapshot;
    expect(snap.seats.tiger.bot).toBe('strong');
    expect(snap.moves).toEqual(['G@c3']);
    const reply: RoomEvent = await again.waitFor((e) => e.type === 'move');
    expect(reply.side).toBe('tiger');
    expect(reply.version).toBe(snap.version + 1);
    expect(reply.snapshot.moves).toHaveLength(2);
    expect(legalMoves(gameOf(['G@c3'])).map(makeMove)).toContain(reply.move);
  });

  it('moves after a restart though its player is away, when its clock runs (a timed game)', async () => {
    const dataDir = fixture.dataDir();
    const first = await server({ botMinDelayMs: 5000 }, dataDir);
    const created = await createRoom(first.url, {
      variant: 'bagh-chal',
      side: 'goat',
      opponent: { bot: 'beginner' },
      clock: { initialMs: 60_000, incrementMs: 0 },
    });
    const { client: goat, roomId } = await player(first.url, created);
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    goat.close();
    await first.close();

    // Nobody comes back: the computer's clock runs, so it answers by itself.
    const second = await server({}, dataDir);
    let moves: readonly string[] = [];
    for (const deadline = Date.now() + 30_000; moves.length < 2 && Date.now() < deadline; await sleep(100))
      moves = (await getSnapshot(second.url, roomId)).moves;
    expect(moves).toHaveLength(2);
    expect(legalMoves(gameOf(['G@c3'])).map(makeMove)).toContain(moves[1]);
  });

  it('starts the rematch at once, sides swapped, against the same level', async () => {
    const { url } = await server();
    const { client: goat, roomId } = await player(url, await botRoom(url, 'goat', 'casual'));
    expectError(await goat.request('rematch:offer', { roomId }), 'NOT_ALLOWED'); // not over yet
    await goat.request('resign', { roomId });
    const assigned = new Promise<{ roomId: string; side: string; seatToken: string }>((resolve) =>
      goat.socket.once('seat:assigned', resolve),
    );
    const ack = await goat.request('rematch:offer', { roomId });
    expect(ack).toMatchObject({ ok: true });
    expect(ack.roomId).toMatch(/^[A-Za-z0-9_-]+$/);
    const seat = await assigned;
    expect(seat).toMatchObject({ roomId: ack.roomId, side: 'tiger' });
    const old = await getSnapshot(url, roomId);
    expect(old.rematch).toEqual({ offeredBy: 'goat', roomId: ack.roomId });
    const next = await fixture.client(url);
    const joined = await next.request('room:join', { roomId: ack.roomId, seatToken: seat.seatToken });
    expect(joined).toMatchObject({ ok: true, role: 'tiger' });
    expect(joined.snapshot.seats.goat.bot).toBe('casual');
    // The computer now opens as the goats.
    await next.waitFor((e) => e.type === 'move' && e.side === 'goat');
  });

  it('refuses an unknown level', async () => {
    const { url } = await server();
    const response = await fetch(`${url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variant: 'bagh-chal', side: 'goat', opponent: { bot: 'grandmaster' } }),
    });
    expect(response.status).toBe(400);
  });
});

/** Until the snapshot says `side`'s player is gone (their disconnect judged). */
async function gone(url: string, roomId: string, side: 'goat' | 'tiger'): Promise<void> {
  while ((await getSnapshot(url, roomId)).seats[side].connected) await sleep(20);
}

/** The computer's moves `clients` have seen, by side. */
const botMoves = (clients: readonly Client[], side: 'goat' | 'tiger'): number =>
  clients.reduce((n, c) => n + c.events.filter((e) => e.type === 'move' && e.side === side).length, 0);

describe("the computer's searches", () => {
  it('start only once the player is here: none for a room created and never joined', async () => {
    const { url, app } = await server({ botWorkers: 1 });
    // The computer opens in each of them.
    const rooms = await Promise.all([1, 2, 3].map(() => botRoom(url, 'tiger', 'beginner')));
    expect([app.bots.searches, app.bots.busy, app.bots.queued]).toEqual([0, 0, 0]);
    const { client } = await player(url, rooms[0]!);
    await client.waitFor((e) => e.type === 'move' && e.side === 'goat');
    expect(app.bots.searches).toBe(1);
  });

  it('stop when the player resigns', async () => {
    const { url, app } = await server({ botWorkers: 1 });
    const { client: goat, roomId } = await player(url, await botRoom(url, 'goat', 'max'));
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    expect(app.bots.busy).toBe(1);
    expect(await goat.request('resign', { roomId })).toMatchObject({ ok: true });
    await waitUntil(() => app.bots.busy === 0);
    expect([app.bots.searches, app.bots.cancelled]).toEqual([1, 1]);
    expect((await getSnapshot(url, roomId)).moves).toEqual(['G@c3']);
  });

  it('go on through a short absence', async () => {
    const { url, app } = await server({ botWorkers: 1 }); // the grace: 30 s
    const created = await botRoom(url, 'goat', 'max');
    const { client: goat, roomId } = await player(url, created);
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    goat.close();
    await gone(url, roomId, 'goat');
    const { client: back, joined } = await player(url, created);
    // Its answer may have come while the player was away.
    if (joined.snapshot.moves.length < 2) await back.waitFor((e) => e.type === 'move' && e.side === 'tiger');
    expect((await getSnapshot(url, roomId)).moves).toHaveLength(2);
    expect([app.bots.searches, app.bots.cancelled]).toEqual([1, 0]);
  });

  it('stop once the player is gone for the abandonment grace, and start again when they are back', async () => {
    // A max search (2 million nodes, or 2.5 s) outlasts this grace many times over.
    const { url, app } = await server({ botWorkers: 1, abandonGraceMs: 200 });
    const created = await botRoom(url, 'goat', 'max');
    const { client: goat, roomId } = await player(url, created);
    expect(await goat.request('move', { roomId, move: 'G@c3', ply: 0 })).toMatchObject({ ok: true });
    goat.close();
    await waitUntil(() => app.bots.cancelled === 1 && app.bots.busy === 0);
    expect((await getSnapshot(url, roomId)).moves).toEqual(['G@c3']);
    const { client: back } = await player(url, created);
    await back.waitFor((e) => e.type === 'move' && e.side === 'tiger');
    expect(app.bots.searches).toBe(2);
  });

  it('answer a fresh beginner room after at most the search under way, with 25 max rooms waiting', {
    timeout: 60_000,
  }, async () => {
    const ROOMS = 25;
    // Through the manager, and joined from one address: the cap per address is not what this tests.
    const { url, app } = await server({ botWorkers: 1 }, undefined, { BOT_GAMES_PER_ADDRESS: ROOMS + 1 });
    const made = await Promise.all(
      Array.from({ length: ROOMS }, () =>
        app.rooms.create({ variant: 'bagh-chal', options: {}, side: 'tiger', bot: 'max' }),
      ),
    );
    const players = await fixture.clients(url, url, url, url, url);
    for (const [i, { room, seatToken }] of made.entries()) {
      const joined = await players[i % players.length]!.request('room:join', { roomId: room.id, seatToken });
      expect(joined).toMatchObject({ ok: true, role: 'tiger' });
    }
    expect(app.bots.busy + app.bots.queued).toBe(ROOMS);

    const { client } = await player(url, await botRoom(url, 'tiger', 'beginner'));
    // Behind the queue it would wait for 25 max searches (up to 25 × 3 s); its own turn comes
    // after the one under way (two, if the first ended as it joined): counted, not timed.
    await client.waitFor((e) => e.type === 'move' && e.side === 'goat', 30_000);
    expect(botMoves(players, 'goat')).toBeLessThanOrEqual(2);
  });
});
