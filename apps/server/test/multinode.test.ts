/**
 * Several nodes behind one URL: two `node dist/server.js` processes sharing one real PostgreSQL
 * (DATABASE_URL: the rooms) and one real redis-server (REDIS_URL: the broadcasts), clients spread
 * over both. Run after `pnpm build`.
 */
import type { RoomEvent } from '@bagh/protocol';
import { createGame, legalMoves, makeMove, playMoveTexts, type Side } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { type Client, createRoom, getSnapshot, perTest, playMoves, sleep, waitUntil } from './helpers.js';
import { BAGH_CHAL_GOAT_WIN, BAGH_CHAL_TIGER_WIN } from './lines.js';
import { clusterNodes } from './multinode-helpers.js';

const fixture = perTest();
const node = clusterNodes(fixture);
const client = (url: string) => fixture.client(url);

const gameEvents = (events: readonly RoomEvent[], from: number) =>
  events.filter((e) => e.version > from).map((e) => `${e.version}:${e.type}:${e.move ?? ''}`);

describe('two nodes sharing one PostgreSQL and one Redis', () => {
  it('plays a game with one player and one spectator on each node; both spectators see the same events', async () => {
    const [a, b] = await Promise.all([node(), node()]);
    const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    // The room is live on B (loaded from PostgreSQL) before anything happens on A.
    expect((await getSnapshot(b.url, roomId)).version).toBe(0);

    const [goat, tiger, watchA, watchB] = await fixture.clients(a.url, b.url, a.url, b.url);
    expect(await goat.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
      role: 'goat',
    });
    expect(await watchA.request('room:join', { roomId })).toMatchObject({ ok: true, role: 'spectator' });
    expect(await watchB.request('room:join', { roomId })).toMatchObject({ ok: true, role: 'spectator' });
    const claimed = await tiger.request('seat:claim', { roomId, side: 'tiger' });
    expect(claimed).toMatchObject({ ok: true, snapshot: { seats: { tiger: { taken: true } } } });
    const start = claimed.snapshot.version as number;
    await watchA.waitForVersion(start);
    await watchB.waitForVersion(start);

    const players: Record<Side, Client> = { goat, tiger };
    let version = start;
    let toMove: Side = claimed.snapshot.toMove;
    for (const [ply, move] of BAGH_CHAL_GOAT_WIN.entries()) {
      const ack = await players[toMove].request('move', { roomId, move, ply });
      expect(ack, `move ${ply} ${move}`).toEqual({ ok: true, version: version + 1 });
      version = ack.version;
      const [seenA] = await Promise.all([watchA.waitForVersion(version), watchB.waitForVersion(version)]);
      expect(seenA).toMatchObject({ type: 'move', move, version });
      toMove = seenA.snapshot.toMove;
    }

    // Both spectators saw every event after the seats were set, in the same order, versions +1 each.
    const seenA = gameEvents(watchA.events, start);
    expect(seenA).toEqual(gameEvents(watchB.events, start));
    expect(seenA).toEqual(BAGH_CHAL_GOAT_WIN.map((move, i) => `${start + i + 1}:move:${move}`));
    const endA = await getSnapshot(a.url, roomId);
    const endB = await getSnapshot(b.url, roomId);
    expect(endA.result).toEqual({ winner: 'goat', reason: 'trapped' });
    const game = ({ version, position, moves, toMove, result }: typeof endA) => ({
      version,
      position,
      moves,
      toMove,
      result,
    });
    expect(game(endB)).toEqual(game(endA));
    expect(endB.moves).toEqual(BAGH_CHAL_GOAT_WIN);
  });

  it('finishes a game on the other node after one node is killed mid-game', async () => {
    const [a, b] = await Promise.all([node(), node()]);
    const seated = await fixture.seat(a.url);
    const { created, roomId, goat, tiger } = seated;
    const tigerToken = seated.claimed.seatToken;
    const watcher = await client(b.url);
    await watcher.request('room:join', { roomId });
    const half = 5;
    await playMoves(seated, BAGH_CHAL_TIGER_WIN.slice(0, half));
    const before = await getSnapshot(b.url, roomId);
    expect(before.moves).toEqual(BAGH_CHAL_TIGER_WIN.slice(0, half));

    await a.kill(); // SIGKILL: no shutdown, no goodbye
    await waitUntil(() => !goat.socket.connected && !tiger.socket.connected);

    const goat2 = await client(b.url);
    const tiger2 = await client(b.url);
    expect(await goat2.request('room:join', { roomId, seatToken: created.seatToken })).toMatchObject({
      ok: true,
      role: 'goat',
      snapshot: { moves: BAGH_CHAL_TIGER_WIN.slice(0, half) },
    });
    expect(await tiger2.request('room:join', { roomId, seatToken: tigerToken })).toMatchObject({
      ok: true,
      role: 'tiger',
    });
    await playMoves({ roomId, goat: goat2, tiger: tiger2 }, BAGH_CHAL_TIGER_WIN.slice(half), half);
    const end = await getSnapshot(b.url, roomId);
    expect(end.moves).toEqual(BAGH_CHAL_TIGER_WIN);
    expect(end.result).toEqual({ winner: 'tiger', reason: 'captures' });
    const last = await watcher.waitFor((e) => e.snapshot.result !== null);
    expect(last.snapshot.moves).toEqual(BAGH_CHAL_TIGER_WIN);
    // A node started afterwards serves the same finished room from PostgreSQL.
    const c = await node();
    expect(await getSnapshot(c.url, roomId)).toMatchObject({
      moves: BAGH_CHAL_TIGER_WIN,
      version: end.version,
    });
  });

  it('ends a timed game on time on the node left, when the node that judged its moves is killed', async () => {
    const [a, b] = await Promise.all([node(), node()]);
    const created = await createRoom(a.url, {
      variant: 'bagh-chal',
      side: 'goat',
      clock: { initialMs: 3000, incrementMs: 0 },
    });
    const { roomId } = created;
    const [goat, tiger, watcher] = await fixture.clients(a.url, a.url, b.url);
    await goat.request('room:join', { roomId, seatToken: created.seatToken });
    await tiger.request('seat:claim', { roomId, side: 'tiger' });
    await watcher.request('room:join', { roomId });
    await playMoves({ roomId, goat, tiger }, ['G@c3', 'a1-b1']);
    await watcher.waitFor((e) => e.snapshot.moves.length === 2);
    await a.kill(); // the node that set the flag timer; nobody comes back
    // B heard every move (its watcher's room) and ends the game when the goats' time runs out.
    const ended = await watcher.waitFor((e) => e.snapshot.result !== null, 30_000);
    expect(ended.snapshot.result).toEqual({ winner: 'tiger', reason: 'timeout' });
    expect(ended.snapshot.moves).toEqual(['G@c3', 'a1-b1']);
  });

  it('ends a timed game on time on a node that never held it, when the node that did is killed', async () => {
    const [a, b] = await Promise.all([
      node(),
      node({ TIMED_GAMES_CHECK_MS: '300', PRESENCE_RECOUNT_MS: '300' }),
    ]);
    const created = await createRoom(a.url, {
      variant: 'bagh-chal',
      side: 'goat',
      clock: { initialMs: 2000, incrementMs: 0 },
    });
    const { roomId } = created;
    const [goat, tiger] = await fixture.clients(a.url, a.url);
    await goat.request('room:join', { roomId, seatToken: created.seatToken });
    await tiger.request('seat:claim', { roomId, side: 'tiger' });
    await playMoves({ roomId, goat, tiger }, ['G@c3', 'a1-b1']);
    await sleep(1000); // B has counted two nodes since A started (it looks every 300 ms)
    await a.kill(); // nobody comes back, and B has no socket of the room
    // The archive is read from the store: listing it does not load the room on B.
    const archived = async () => {
      const listed = (await (await fetch(`${b.url}/api/games`)).json()) as {
        games: { roomId: string; result: unknown }[];
      };
      return listed.games.find((game) => game.roomId === roomId);
    };
    let found: Awaited<ReturnType<typeof archived>>;
    for (const deadline = Date.now() + 30_000; !found && Date.now() < deadline; await sleep(200))
      found = await archived();
    expect(found?.result).toEqual({ winner: 'tiger', reason: 'timeout' });
  });

  it('applies a move sent to both nodes at once exactly once', async () => {
    const [a, b] = await Promise.all([node(), node()]);
    const created = await createRoom(a.url, { variant: 'bagh-chal', side: 'goat' });
    const { roomId } = created;
    const tigerA = await client(a.url);
    const { seatToken: tigerToken } = await tigerA.request('seat:claim', { roomId, side: 'tiger' });
    // The goat player has a tab on each node; both hold the seat.
    const goatA = await client(a.url);
    const goatB = await client(b.url);
    const tigerB = await client(b.url);
    await goatA.request('room:join', { roomId, seatToken: created.seatToken });
    await goatB.request('room:join', { roomId, seatToken: created.seatToken });
    await tigerB.request('room:join', { roomId, seatToken: tigerToken });

    const line = BAGH_CHAL_TIGER_WIN;
    for (let ply = 0; ply < 6; ply++) {
      const [first, second] = ply % 2 === 0 ? [goatA, goatB] : [tigerB, tigerA];
      const move = line[ply];
      const acks = await Promise.all([
        first.request('move', { roomId, move, ply }),
        second.request('move', { roomId, move, ply }),
      ]);
      const oks = acks.filter((ack) => ack.ok === true);
      expect(oks.length, JSON.stringify(acks)).toBeGreaterThanOrEqual(1);
      // A second ok is the answer to a resend: the same version, not a new move.
      expect(new Set(oks.map((ack) => ack.version)).size).toBe(1);
      for (const ack of acks) if (!ack.ok) expect(ack.error.code).toBe('STALE');
      const snapshot = await getSnapshot(ply % 2 === 0 ? b.url : a.url, roomId);
      expect(snapshot.moves).toEqual(line.slice(0, ply + 1));
      expect(snapshot.version).toBe(oks[0].version);
    }
  });
});

describe('two nodes and the computer', () => {
  it('plays against the computer with the player on both nodes: one answer per move', async () => {
    const a = await node({ BOT_MIN_DELAY_MS: '100' });
    const b = await node();
    const created = await createRoom(a.url, {
      variant: 'bagh-chal',
      side: 'goat',
      opponent: { bot: 'beginner' },
    });
    const { roomId, seatToken } = created;
    const onA = await client(a.url);
    const onB = await client(b.url);
    const watch = await client(b.url);
    for (const c of [onA, onB])
      expect(await c.request('room:join', { roomId, seatToken })).toMatchObject({ ok: true });
    await watch.request('room:join', { roomId });
    let played: string[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const player = turn % 2 === 0 ? onA : onB;
      const start = createGame('bagh-chal');
      if (!start.ok) throw new Error(start.error.message);
      const game = playMoveTexts(start.value, played);
      if (!game.ok) throw new Error(game.error.message);
      const text = makeMove(legalMoves(game.value)[turn]!);
      const ack = await player.request('move', { roomId, move: text, ply: played.length });
      expect(ack).toMatchObject({ ok: true });
      const reply = await watch.waitFor(
        (e) => e.type === 'move' && e.side === 'tiger' && e.version > ack.version,
      );
      played = reply.snapshot.moves;
    }
    const snapshot = await getSnapshot(b.url, roomId);
    expect(snapshot.seats.tiger.bot).toBe('beginner');
    const moves = watch.events.filter((e) => e.type === 'move');
    // Strictly alternating sides: never two answers to one move, whichever node computed them.
    moves.forEach((e, i) => {
      expect(e.side).toBe(i % 2 === 0 ? 'goat' : 'tiger');
    });
    expect(moves.map((e) => e.move)).toEqual(snapshot.moves);
    const versions = watch.events.map((e) => e.version);
    expect(versions).toEqual(versions.map((_, i) => versions[0]! + i));
  });
});
