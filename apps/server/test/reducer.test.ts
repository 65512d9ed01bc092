import { MAX_PLIES } from '@bagh/protocol';
import { describe, expect, it } from 'vitest';
import { type Command, type Reduction, reduce } from '../src/rooms/reducer.js';
import { snapshotOf } from '../src/rooms/snapshot.js';
import { newRoomState, type RoomState } from '../src/rooms/state.js';
import { hashSeatToken } from '../src/rooms/tokens.js';
import { BAGH_CHAL_TIGER_WIN, baghGutiLoop } from './lines.js';

const GOAT_HASH = hashSeatToken('goat-token-goat-token-goat-token');
const TIGER_HASH = hashSeatToken('tiger-token-tiger-token-tiger-tok');

const fresh = (): RoomState =>
  newRoomState('room-one', 0, {
    variant: 'bagh-chal',
    options: {},
    creator: { side: 'goat', tokenHash: GOAT_HASH },
  });

function ok(result: Reduction) {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}
function code(result: Reduction): string {
  return result.ok ? 'ok' : result.error.code;
}
/** Applies commands in order, failing on the first error. */
function run(state: RoomState, ...commands: Command[]): RoomState {
  return commands.reduce((s, c) => ok(reduce(s, c)).state, state);
}
/** A room with the goat (socket g) and tiger (socket t) seated and a spectator (socket s). */
const seated = (): RoomState =>
  run(
    fresh(),
    { type: 'join', socketId: 'g', tokenHash: GOAT_HASH },
    { type: 'claim', socketId: 't', side: 'tiger', tokenHash: TIGER_HASH },
    { type: 'join', socketId: 's' },
  );
const move = (socketId: string, text: string, ply: number): Command => ({
  type: 'move',
  socketId,
  move: text,
  ply,
});

describe('room reducer: joins and seats', () => {
  it('a join without a token watches; with the seat token it is that seat', () => {
    const watched = ok(reduce(fresh(), { type: 'join', socketId: 'a' }));
    expect(watched.events).toHaveLength(1);
    expect(watched.events[0]).toMatchObject({ type: 'presence', version: 1, snapshot: { spectators: 1 } });
    const seatedGoat = ok(reduce(watched.state, { type: 'join', socketId: 'b', tokenHash: GOAT_HASH }));
    expect(seatedGoat.events[0]).toMatchObject({
      version: 2,
      snapshot: { seats: { goat: { taken: true, connected: true } }, spectators: 1 },
    });
  });

  it('a wrong token is UNAUTHORIZED; a second socket on a connected seat is no visible change', () => {
    expect(code(reduce(fresh(), { type: 'join', socketId: 'a', tokenHash: TIGER_HASH }))).toBe(
      'UNAUTHORIZED',
    );
    const one = run(fresh(), { type: 'join', socketId: 'a', tokenHash: GOAT_HASH });
    const two = ok(reduce(one, { type: 'join', socketId: 'b', tokenHash: GOAT_HASH }));
    expect(two.events).toEqual([]);
    expect(two.state.seats.goat.sockets).toEqual(['a', 'b']);
    expect(two.state.version).toBe(one.version);
  });

  it('claims: a free seat once, SEAT_TAKEN after, NOT_ALLOWED for a second seat', () => {
    const claimed = ok(
      reduce(fresh(), { type: 'claim', socketId: 'x', side: 'tiger', tokenHash: TIGER_HASH }),
    );
    expect(claimed.events[0]).toMatchObject({ type: 'seat', side: 'tiger', version: 1 });
    expect(claimed.state.seats.tiger.tokenHash).toBe(TIGER_HASH);
    expect(
      code(reduce(claimed.state, { type: 'claim', socketId: 'y', side: 'tiger', tokenHash: GOAT_HASH })),
    ).toBe('SEAT_TAKEN');
    expect(code(reduce(fresh(), { type: 'claim', socketId: 'y', side: 'goat', tokenHash: TIGER_HASH }))).toBe(
      'SEAT_TAKEN',
    );
    const goatHere = run(fresh(), { type: 'join', socketId: 'g', tokenHash: GOAT_HASH });
    expect(
      code(reduce(goatHere, { type: 'claim', socketId: 'g', side: 'tiger', tokenHash: TIGER_HASH })),
    ).toBe('NOT_ALLOWED');
  });

  it('disconnects are presence events only when visible; a recovered socket returns to its seat', () => {
    const room = seated();
    const left = ok(reduce(room, { type: 'disconnect', socketId: 't' }));
    expect(left.events[0]).toMatchObject({
      type: 'presence',
      snapshot: { seats: { tiger: { connected: false } } },
    });
    expect(ok(reduce(left.state, { type: 'disconnect', socketId: 'nobody' })).events).toEqual([]);
    const back = ok(reduce(left.state, { type: 'connect', socketId: 't', side: 'tiger' }));
    expect(back.state.seats.tiger.sockets).toEqual(['t']);
    // A recovered socket cannot come back to a seat that is not taken.
    const stray = ok(reduce(fresh(), { type: 'connect', socketId: 'z', side: 'tiger' }));
    expect(stray.state.spectators).toEqual(['z']);
  });
});

describe('room reducer: moves', () => {
  it('checks seat, ply, turn and legality, in that order', () => {
    const room = seated();
    expect(code(reduce(room, move('s', 'G@c3', 0)))).toBe('UNAUTHORIZED');
    expect(code(reduce(room, move('nobody', 'G@c3', 0)))).toBe('UNAUTHORIZED');
    expect(code(reduce(room, move('t', 'a1-b1', 0)))).toBe('NOT_YOUR_TURN');
    expect(code(reduce(room, move('g', 'G@c3', 1)))).toBe('STALE');
    expect(code(reduce(room, move('g', 'hello', 0)))).toBe('ILLEGAL_MOVE');
    const illegal = reduce(room, move('g', 'G@a1', 0));
    expect(illegal.ok ? '' : illegal.error.message).toContain('not empty');
  });

  it('applies a legal move as one versioned event with the canonical text', () => {
    const room = seated();
    const played = ok(reduce(room, move('g', 'c3', 0)));
    expect(played.version).toBe(room.version + 1);
    expect(played.events).toHaveLength(1);
    expect(played.events[0]).toMatchObject({
      type: 'move',
      side: 'goat',
      move: 'G@c3',
      version: room.version + 1,
    });
    expect(played.events[0]!.snapshot).toEqual(snapshotOf(played.state));
    expect(played.state.moveTexts).toEqual(['G@c3']);
    expect(played.state.position).toBe('T3T/5/2G2/5/T3T t 19 0');
  });

  it('answers a resend of the last move with its version and changes nothing', () => {
    const room = run(seated(), move('g', 'G@c3', 0));
    const applied = room.lastMove!.version;
    const resend = ok(reduce(room, move('g', 'g@C3', 0)));
    expect(resend).toMatchObject({ events: [], version: applied });
    expect(resend.state).toBe(room);
    expect(code(reduce(room, move('g', 'G@d3', 0)))).toBe('STALE');
    expect(code(reduce(room, move('t', 'G@c3', 0)))).toBe('STALE');
    const later = run(room, move('t', 'a1-b1', 1));
    expect(code(reduce(later, move('g', 'G@c3', 0)))).toBe('STALE');
  });

  it('GAME_OVER after the last move, while the final move can still be resent', () => {
    let room = seated();
    for (const [ply, text] of BAGH_CHAL_TIGER_WIN.entries())
      room = run(room, move(ply % 2 ? 't' : 'g', text, ply));
    expect(snapshotOf(room).result).toEqual({ winner: 'tiger', reason: 'captures' });
    const n = BAGH_CHAL_TIGER_WIN.length;
    expect(code(reduce(room, move('g', 'G@c3', n)))).toBe('GAME_OVER');
    expect(code(reduce(room, move('t', BAGH_CHAL_TIGER_WIN[n - 1]!, n - 1)))).toBe('ok');
  });

  it('never mutates its input and never exposes a token hash', () => {
    const room = seated();
    const before = JSON.stringify(room);
    const results = [
      reduce(room, move('g', 'G@c3', 0)),
      reduce(room, { type: 'join', socketId: 'n', tokenHash: TIGER_HASH }),
      reduce(room, { type: 'disconnect', socketId: 'g' }),
    ];
    expect(JSON.stringify(room)).toBe(before);
    for (const result of results) {
      const text = JSON.stringify(ok(result).events);
      expect(text).not.toContain(GOAT_HASH);
      expect(text).not.toContain(TIGER_HASH);
    }
  });
});

describe('the longest game a room keeps', () => {
  const loop = baghGutiLoop(MAX_PLIES + 1);
  /** A Bagh Guti room whose goat is socket g; the tiger is socket t, or the computer. */
  const looped = (plies: number, computer: boolean, timed = false): RoomState =>
    loop.slice(0, plies).reduce(
      (state, text, ply) =>
        ply % 2 === 0 && computer
          ? run(state, { type: 'bot-move', version: state.version, move: text })
          : run(state, { ...move(ply % 2 === 0 ? 't' : 'g', text, ply), at: ply * 10 }),
      run(
        newRoomState('room-loop', 0, {
          variant: 'bagh-guti',
          options: {},
          creator: { side: 'goat', tokenHash: GOAT_HASH },
          ...(computer ? { bot: { side: 'tiger' as const, level: 'casual' as const } } : {}),
          ...(timed ? { clock: { initialMs: 60_000, incrementMs: 0 } } : {}),
        }),
        { type: 'join', socketId: 'g', tokenHash: GOAT_HASH },
        ...(computer
          ? []
          : [{ type: 'claim', socketId: 't', side: 'tiger', tokenHash: TIGER_HASH } as const]),
      ),
    );

  it(`refuses a move past ${MAX_PLIES} plies as NOT_ALLOWED, saying how the game can end`, () => {
    const full = looped(MAX_PLIES, false);
    expect(full.moveTexts).toHaveLength(MAX_PLIES);
    const refused = reduce(full, move('t', loop[MAX_PLIES]!, MAX_PLIES));
    expect(code(refused)).toBe('NOT_ALLOWED');
    expect(refused.ok ? '' : refused.error.message).toMatch(
      /at most 2000 moves, and the clocks have stopped: offer a draw or resign/,
    );
    expect(code(reduce(full, { type: 'resign', socketId: 't' }))).toBe('ok');
  });

  it('stops the clocks at the 2,000th move: no flag falls while the players decide', () => {
    const before = looped(MAX_PLIES - 1, false, true);
    expect(snapshotOf(before).clock?.running).toBe('goat');
    const full = looped(MAX_PLIES, false, true);
    expect(snapshotOf(full).clock?.running).toBeNull();
    const late = reduce(full, { type: 'flag', version: full.version, at: full.at + 3_600_000 });
    expect(ok(late).state.result).toBeNull();
    expect(code(reduce(full, { type: 'draw-offer', socketId: 'g' }))).toBe('ok');
  });

  it('reads the clocks at clockAt when given (a move the store refused, timed at its first try)', () => {
    const tigersTurn = looped(2, false, true); // the tiger's 60 s run from t = 10
    const late = { ...move('t', loop[2]!, 2), at: 70_000 };
    expect(code(reduce(tigersTurn, late))).toBe('GAME_OVER');
    const held = ok(reduce(tigersTurn, { ...late, clockAt: 20 }));
    expect(held.state.moveTexts).toHaveLength(3);
    const clock = snapshotOf(held.state).clock;
    expect(clock).toMatchObject({ tiger: 60_000 - 10, goat: 60_000 - 10, running: 'goat' }); // the goat's runs from 70 s
    expect(
      ok(reduce(tigersTurn, { type: 'flag', version: tigersTurn.version, at: 70_000, clockAt: 20 })).state
        .result,
    ).toBeNull();
  });

  it('the computer, which takes no draw offer, agrees to one there', () => {
    const before = looped(MAX_PLIES - 1, true);
    expect(code(reduce(before, { type: 'draw-offer', socketId: 'g' }))).toBe('NOT_ALLOWED');
    const full = looped(MAX_PLIES, true);
    const drawn = ok(reduce(full, { type: 'draw-offer', socketId: 'g' }));
    expect(drawn.state.result).toEqual({ winner: null, reason: 'agreement' });
    expect(code(reduce(full, { type: 'bot-move', version: full.version, move: loop[MAX_PLIES]! }))).toBe(
      'NOT_ALLOWED',
    );
  });
});

describe('a bot seat', () => {
  const botRoom = (): RoomState =>
    run(
      newRoomState('room-bot', 0, {
        variant: 'bagh-chal',
        options: {},
        creator: { side: 'goat', tokenHash: GOAT_HASH },
        bot: { side: 'tiger', level: 'casual' },
      }),
      { type: 'join', socketId: 'g', tokenHash: GOAT_HASH },
    );

  it('is taken and connected, shows its level, and cannot be claimed', () => {
    const state = botRoom();
    expect(snapshotOf(state).seats.tiger).toEqual({ taken: true, connected: true, bot: 'casual' });
    expect(state.init.bot).toEqual({ side: 'tiger', level: 'casual' });
    expect(code(reduce(state, { type: 'claim', socketId: 'x', side: 'tiger', tokenHash: TIGER_HASH }))).toBe(
      'SEAT_TAKEN',
    );
  });

  it('moves through bot-move only at the version it was computed for, on its turn', () => {
    const state = run(botRoom(), move('g', 'G@c3', 0));
    expect(ok(reduce(state, { type: 'bot-move', version: state.version - 1, move: 'a1-b2' })).events).toEqual(
      [],
    );
    const applied = ok(reduce(state, { type: 'bot-move', version: state.version, move: 'a1-b2' }));
    expect(applied.events.map((e) => [e.type, e.side, e.move])).toEqual([['move', 'tiger', 'a1-b2']]);
    // Not its turn now: a repeated answer is a no-op.
    const again = reduce(applied.state, { type: 'bot-move', version: applied.state.version, move: 'b2-b3' });
    expect(ok(again).events).toEqual([]);
    // After a resign nothing moves.
    const resigned = run(state, { type: 'resign', socketId: 'g' });
    expect(
      ok(reduce(resigned, { type: 'bot-move', version: resigned.version, move: 'a1-b2' })).events,
    ).toEqual([]);
  });
});

describe('a room stored before its options were checked as they are now', () => {
  it("loads with the variant's fixed rules on top (Bagh Chal asked without goatsFirst or noRepeat)", () => {
    const state = newRoomState('room-old', 0, {
      variant: 'bagh-chal',
      options: { goatsFirst: false, noRepeat: false },
      creator: { side: 'goat', tokenHash: GOAT_HASH },
    });
    expect(state.game.options).toEqual({ goatsFirst: true, multiJump: false, noRepeat: true });
    expect(state.game.position.toMove).toBe('goat');
  });
});
