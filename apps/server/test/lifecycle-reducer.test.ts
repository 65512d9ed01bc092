/** The reducer's lifecycle commands (issue 5), without sockets: time comes only from `at`. */
import { describe, expect, it } from 'vitest';
import { archivedGameOf } from '../src/rooms/archive.js';
import { CHAT_MESSAGES_PER_ROOM, type Command, type Reduction, reduce } from '../src/rooms/reducer.js';
import { snapshotOf } from '../src/rooms/snapshot.js';
import { newRoomState, type RoomState } from '../src/rooms/state.js';
import { hashSeatToken } from '../src/rooms/tokens.js';

const GOAT_HASH = hashSeatToken('goat-token-goat-token-goat-token');
const TIGER_HASH = hashSeatToken('tiger-token-tiger-token-tiger-tok');
const T0 = 1_000_000;

const fresh = (clock: { initialMs: number; incrementMs: number } | null = null): RoomState =>
  newRoomState(
    'room-one',
    T0,
    { variant: 'bagh-chal', options: {}, creator: { side: 'goat', tokenHash: GOAT_HASH }, clock },
    { abandonGraceMs: 1_000 },
  );

function ok(result: Reduction) {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}
const code = (result: Reduction): string => (result.ok ? 'ok' : result.error.code);
const run = (state: RoomState, ...commands: Command[]): RoomState =>
  commands.reduce((s, c) => ok(reduce(s, c)).state, state);
/** Goat on socket g, tiger on t, spectator s; all at T0. */
const seated = (clock: { initialMs: number; incrementMs: number } | null = null): RoomState =>
  run(
    fresh(clock),
    { type: 'join', socketId: 'g', tokenHash: GOAT_HASH, at: T0 },
    { type: 'claim', socketId: 't', side: 'tiger', tokenHash: TIGER_HASH, at: T0 },
    { type: 'join', socketId: 's', at: T0 },
  );
const move = (socketId: string, text: string, ply: number, at = T0): Command => ({
  type: 'move',
  socketId,
  move: text,
  ply,
  at,
});

describe('resign, abort, draws', () => {
  it('resign: the other side wins; a spectator is UNAUTHORIZED; after the end GAME_OVER', () => {
    const room = seated();
    expect(code(reduce(room, { type: 'resign', socketId: 's' }))).toBe('UNAUTHORIZED');
    const resigned = ok(reduce(room, { type: 'resign', socketId: 'g' }));
    expect(resigned.events[0]).toMatchObject({ type: 'result', side: 'tiger' });
    expect(snapshotOf(resigned.state).result).toEqual({ winner: 'tiger', reason: 'resign' });
    expect(code(reduce(resigned.state, { type: 'resign', socketId: 't' }))).toBe('GAME_OVER');
    expect(code(reduce(resigned.state, move('g', 'G@c3', 0)))).toBe('GAME_OVER');
  });

  it('abort: while a side has not moved; NOT_ALLOWED after both moved', () => {
    const one = run(seated(), move('g', 'G@c3', 0));
    expect(snapshotOf(ok(reduce(one, { type: 'abort', socketId: 't' })).state).result).toEqual({
      winner: null,
      reason: 'aborted',
    });
    const two = run(one, move('t', 'a1-b1', 1));
    expect(code(reduce(two, { type: 'abort', socketId: 'g' }))).toBe('NOT_ALLOWED');
  });

  it('draw: offer, decline, accept, a mutual offer agrees, and an offer lapses on the reply move', () => {
    const room = seated();
    expect(code(reduce(room, { type: 'draw-accept', socketId: 't' }))).toBe('NOT_ALLOWED');
    const offered = run(room, { type: 'draw-offer', socketId: 'g' });
    expect(snapshotOf(offered).drawOffer).toBe('goat');
    expect(ok(reduce(offered, { type: 'draw-offer', socketId: 'g' })).events).toEqual([]);
    expect(code(reduce(offered, { type: 'draw-accept', socketId: 'g' }))).toBe('NOT_ALLOWED');
    expect(snapshotOf(run(offered, { type: 'draw-decline', socketId: 't' })).drawOffer).toBeNull();
    const agreed = run(offered, { type: 'draw-accept', socketId: 't' });
    expect(snapshotOf(agreed).result).toEqual({ winner: null, reason: 'agreement' });
    const mutual = run(offered, { type: 'draw-offer', socketId: 't' });
    expect(snapshotOf(mutual).result).toEqual({ winner: null, reason: 'agreement' });
    const afterOwnMove = run(offered, move('g', 'G@c3', 0));
    expect(afterOwnMove.drawOffer).toBe('goat');
    expect(run(afterOwnMove, move('t', 'a1-b1', 1)).drawOffer).toBeNull();
  });
});

describe('clocks', () => {
  const control = { initialMs: 10_000, incrementMs: 500 };

  it('the first move is free; then each move deducts the time it took and adds the increment', () => {
    const room = seated(control);
    expect(snapshotOf(room).clock).toEqual({ tiger: 10_000, goat: 10_000, running: null });
    const first = run(room, move('g', 'G@c3', 0, T0 + 3_000));
    expect(snapshotOf(first).clock).toEqual({ tiger: 10_000, goat: 10_000, running: 'tiger' });
    const second = run(first, move('t', 'a1-b1', 1, T0 + 5_000));
    expect(snapshotOf(second).clock).toEqual({ tiger: 8_500, goat: 10_000, running: 'goat' });
    // A snapshot at a later `at` shows the running clock counted down.
    expect(snapshotOf({ ...second, at: T0 + 6_000 }).clock).toEqual({
      tiger: 8_500,
      goat: 9_000,
      running: 'goat',
    });
  });

  it('flag: a no-op at another version or before time; a timeout once the time is out', () => {
    const first = run(seated(control), move('g', 'G@c3', 0, T0));
    const early = ok(reduce(first, { type: 'flag', version: first.version, at: T0 + 9_999 }));
    expect(early.events).toEqual([]);
    const stale = ok(reduce(first, { type: 'flag', version: first.version - 1, at: T0 + 20_000 }));
    expect(stale.events).toEqual([]);
    const flagged = ok(reduce(first, { type: 'flag', version: first.version, at: T0 + 10_000 }));
    expect(flagged.events[0]).toMatchObject({
      type: 'result',
      snapshot: {
        result: { winner: 'goat', reason: 'timeout' },
        clock: { tiger: 0, goat: 10_000, running: null },
      },
    });
    // A move that arrives after the time ran out is refused (the room judges the flag first).
    expect(code(reduce(first, move('t', 'a1-b1', 1, T0 + 10_001)))).toBe('GAME_OVER');
  });

  it('a flag judged late (after a restart, the store away) ends the game when the time ran out', () => {
    const first = run(seated(control), move('g', 'G@c3', 0, T0));
    const late = ok(reduce(first, { type: 'flag', version: first.version, at: T0 + 95_000 }));
    expect(late.changes[0]!.change).toMatchObject({ kind: 'result', reason: 'timeout', at: T0 + 10_000 });
    expect(late.events[0]!.snapshot).toMatchObject({ at: T0 + 10_000, clock: { tiger: 0, goat: 10_000 } });
    expect(archivedGameOf(late.state)?.finishedAt).toBe(T0 + 10_000);
  });

  it('a result stops the clocks where they are', () => {
    const first = run(seated(control), move('g', 'G@c3', 0, T0));
    const resigned = run(first, { type: 'resign', socketId: 'g', at: T0 + 4_000 });
    expect(snapshotOf({ ...resigned, at: T0 + 60_000 }).clock).toEqual({
      tiger: 6_000,
      goat: 10_000,
      running: null,
    });
  });
});

describe('abandonment', () => {
  it('a gone seat is claimable after the grace period; the timer announces it; a return cancels it', () => {
    const gone = run(seated(), { type: 'disconnect', socketId: 't', at: T0 + 100 });
    expect(snapshotOf(gone).abandon).toEqual({
      side: 'tiger',
      goneSince: T0 + 100,
      claimableAt: T0 + 1_100,
      claimable: false,
    });
    expect(code(reduce(gone, { type: 'abandon-claim', socketId: 'g', outcome: 'win', at: T0 + 1_099 }))).toBe(
      'NOT_ALLOWED',
    );
    expect(code(reduce(gone, { type: 'abandon-claim', socketId: 's', outcome: 'win', at: T0 + 2_000 }))).toBe(
      'UNAUTHORIZED',
    );
    const early = ok(reduce(gone, { type: 'abandon-timer', version: gone.version, at: T0 + 1_000 }));
    expect(early.events).toEqual([]);
    const ready = ok(reduce(gone, { type: 'abandon-timer', version: gone.version, at: T0 + 1_100 }));
    expect(ready.events[0]).toMatchObject({ type: 'presence', snapshot: { abandon: { claimable: true } } });
    const won = run(gone, { type: 'abandon-claim', socketId: 'g', outcome: 'win', at: T0 + 1_100 });
    expect(snapshotOf(won)).toMatchObject({ result: { winner: 'goat', reason: 'abandoned' }, abandon: null });
    const back = run(gone, { type: 'join', socketId: 't2', tokenHash: TIGER_HASH, at: T0 + 500 });
    expect(snapshotOf(back).abandon).toBeNull();
    expect(
      code(reduce(back, { type: 'abandon-claim', socketId: 'g', outcome: 'draw', at: T0 + 5_000 })),
    ).toBe('NOT_ALLOWED');
  });
});

describe('rematch and chat', () => {
  it('rematch: only after the end, offered by one and accepted by the other', () => {
    const room = seated();
    expect(code(reduce(room, { type: 'rematch-offer', socketId: 'g' }))).toBe('NOT_ALLOWED');
    const over = run(room, { type: 'resign', socketId: 'g' });
    expect(code(reduce(over, { type: 'rematch-offer', socketId: 's' }))).toBe('UNAUTHORIZED');
    const offered = run(over, { type: 'rematch-offer', socketId: 't' });
    expect(snapshotOf(offered).rematch).toEqual({ offeredBy: 'tiger' });
    expect(code(reduce(offered, { type: 'rematch-accept', socketId: 't', roomId: 'next-room' }))).toBe(
      'NOT_ALLOWED',
    );
    const accepted = run(offered, { type: 'rematch-accept', socketId: 'g', roomId: 'next-room' });
    expect(snapshotOf(accepted).rematch).toEqual({ offeredBy: 'tiger', roomId: 'next-room' });
    expect(code(reduce(accepted, { type: 'rematch-offer', socketId: 'g' }))).toBe('NOT_ALLOWED');
  });

  it('chat: each channel has its writers; a message is kept and handed out for delivery', () => {
    const room = seated();
    const said = ok(
      reduce(room, { type: 'chat', socketId: 'g', channel: 'players', text: 'hi', at: T0 + 7 }),
    );
    expect(said.chat).toEqual({
      roomId: 'room-one',
      channel: 'players',
      from: 'goat',
      text: 'hi',
      at: T0 + 7,
    });
    expect(said.events[0]).toMatchObject({ type: 'chat' });
    expect(said.state.chat).toHaveLength(1);
    expect(code(reduce(room, { type: 'chat', socketId: 's', channel: 'players', text: 'hi' }))).toBe(
      'UNAUTHORIZED',
    );
    expect(code(reduce(room, { type: 'chat', socketId: 't', channel: 'spectators', text: 'hi' }))).toBe(
      'UNAUTHORIZED',
    );
    expect(code(reduce(room, { type: 'chat', socketId: 'nobody', channel: 'spectators', text: 'hi' }))).toBe(
      'UNAUTHORIZED',
    );
    expect(
      ok(reduce(room, { type: 'chat', socketId: 's', channel: 'spectators', text: 'psst' })).chat?.from,
    ).toBe('spectator');
  });
});

describe('chat', () => {
  it('a room keeps CHAT_MESSAGES_PER_ROOM messages; one more is RATE_LIMITED and changes nothing', () => {
    const say = (socketId: string, channel: 'players' | 'spectators', text: string): Command => ({
      type: 'chat',
      socketId,
      channel,
      text,
    });
    let state = seated();
    for (let i = 0; i < CHAT_MESSAGES_PER_ROOM; i++)
      state = run(state, say(i % 2 ? 's' : 'g', i % 2 ? 'spectators' : 'players', `message ${i}`));
    expect(state.chat).toHaveLength(CHAT_MESSAGES_PER_ROOM);
    for (const [socketId, channel] of [
      ['g', 'players'],
      ['s', 'spectators'],
    ] as const) {
      const refused = reduce(state, say(socketId, channel, 'one more'));
      expect(code(refused)).toBe('RATE_LIMITED');
    }
    // The game goes on.
    expect(code(reduce(state, move('g', 'G@c3', 0)))).toBe('ok');
  });
});
