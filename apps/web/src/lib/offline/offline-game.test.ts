import type { BotMoveReply, BotMoveRequest } from '@bagh/engine';
import { createGame, legalMoves, makeMove, playMoveTexts, remainingAt } from '@bagh/rules';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type EngineMessage, handleEngineMessage } from '../engine/engine.worker.js';
import { EngineClient, type WorkerLike } from '../engine/engine-client.js';
import { type ComputerPlayer, type GameStore, OfflineGame } from './offline-game.svelte.js';
import { makeSavedGame, parseSavedGame, SAVED_GAME_KEY } from './saved-game.js';

/** localStorage's part the game uses, in memory. */
function memoryStore(initial: Record<string, string> = {}): GameStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

/**
 * A computer that answers when told to: each request waits in `asked` until `reply()` answers
 * it with the first legal move (or the move given).
 */
function handCranked(): ComputerPlayer & {
  asked: BotMoveRequest[];
  reply(move?: string | null): void;
  fail(message: string): void;
} {
  const waiting: { resolve: (r: BotMoveReply) => void; reject: (e: Error) => void }[] = [];
  const asked: BotMoveRequest[] = [];
  return {
    asked,
    move(request) {
      asked.push(request);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    reply(move) {
      const request = asked[asked.length - waiting.length]!;
      const answer = waiting.shift()!;
      if (move === undefined) {
        const start = createGame(request.variant, request.options);
        if (!start.ok) throw new Error('no game');
        const game = playMoveTexts(start.value, request.moves);
        if (!game.ok) throw new Error('no game');
        move = makeMove(legalMoves(game.value)[0]!);
      }
      answer.resolve({ move, depth: 1, nodes: 1 });
    },
    fail(message) {
      waiting.shift()!.reject(new Error(message));
    },
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

/** Returns the given numbers in turn (seeds and the random side). */
const sequence =
  (...values: number[]) =>
  (): number =>
    values.shift() ?? 0;

function newGame(options: { store?: GameStore; random?: () => number } = {}) {
  const computer = handCranked();
  const game = new OfflineGame({
    computer,
    store: options.store ?? memoryStore(),
    random: options.random ?? sequence(11, 22, 33, 44, 55),
    minReplyMs: 0,
  });
  return { computer, game };
}

describe('an offline game against the computer', () => {
  it('judges the player’s moves with the rules and asks the computer for its reply', async () => {
    const { computer, game } = newGame();
    game.open();
    expect(game.game).toBeNull();
    game.start({ variant: 'bagh-chal', options: {}, side: 'goat', level: 'casual' });
    expect(game.yourTurn).toBe(true);
    expect(computer.asked).toHaveLength(0);

    expect(game.playText('a1-b2')).toBe(false); // a tiger's move: not the goats'
    expect(game.error).toMatch(/goat/);
    expect(game.playText('G@c3')).toBe(true);
    expect(game.error).toBeNull();
    expect(game.moves).toEqual(['G@c3']);
    expect(game.thinking).toBe(true);
    expect(game.yourTurn).toBe(false);
    expect(game.playText('G@c4')).toBe(false); // the computer's turn
    expect(computer.asked).toEqual([
      {
        variant: 'bagh-chal',
        options: { goatsFirst: true, multiJump: false, noRepeat: true },
        moves: ['G@c3'],
        level: 'casual',
        seed: 11,
      },
    ]);

    computer.reply('a1-b2');
    await settle();
    expect(game.thinking).toBe(false);
    expect(game.moves).toEqual(['G@c3', 'a1-b2']);
    expect(game.yourTurn).toBe(true);
  });

  it('lets the computer open when it has the first move, on a random side', async () => {
    // 1 is odd: the player is the tigers; the goats (the computer) move first in Bagh Chal.
    const { computer, game } = newGame({ random: sequence(1, 99) });
    game.start({ variant: 'bagh-chal', options: {}, side: 'random', level: 'beginner' });
    expect(game.player).toBe('tiger');
    expect(game.thinking).toBe(true);
    expect(computer.asked[0]).toMatchObject({ moves: [], seed: 99, level: 'beginner' });
    expect(game.canUndo).toBe(false);
    computer.reply();
    await settle();
    expect(game.moves).toHaveLength(1);
    expect(game.yourTurn).toBe(true);
    expect(game.canUndo).toBe(false); // the computer's opening move is not the player's to take back
  });

  it('refuses an illegal move from the computer and can ask again', async () => {
    const { computer, game } = newGame();
    game.start({ variant: 'bagh-chal', options: {}, side: 'goat', level: 'beginner' });
    game.playText('G@c3');
    computer.reply('G@c4'); // a placement: never the tigers'
    await settle();
    expect(game.moves).toEqual(['G@c3']);
    expect(game.error).toMatch(/refused/);
    game.retry();
    computer.fail('worker crashed');
    await settle();
    expect(game.error).toBe('The computer could not move: worker crashed');
    game.retry();
    computer.reply();
    await settle();
    expect(game.error).toBeNull();
    expect(game.moves).toHaveLength(2);
  });

  it('takes back the player’s last move with the computer’s reply, even while it thinks', async () => {
    const { computer, game } = newGame();
    game.start({ variant: 'bagh-chal', options: {}, side: 'goat', level: 'beginner' });
    game.playText('G@c3');
    computer.reply('a1-b2');
    await settle();
    game.playText('G@a1');
    computer.reply('e5-d4');
    await settle();
    expect(game.moves).toEqual(['G@c3', 'a1-b2', 'G@a1', 'e5-d4']);

    game.undo();
    expect(game.moves).toEqual(['G@c3', 'a1-b2']);
    expect(game.yourTurn).toBe(true);

    // Undo while the computer thinks: its late answer is dropped.
    game.playText('G@a1');
    expect(game.thinking).toBe(true);
    game.undo();
    expect(game.thinking).toBe(false);
    expect(game.moves).toEqual(['G@c3', 'a1-b2']);
    computer.reply('e5-d4');
    await settle();
    expect(game.moves).toEqual(['G@c3', 'a1-b2']);

    game.undo();
    expect(game.moves).toEqual([]);
    expect(game.canUndo).toBe(false);
    game.undo();
    expect(game.moves).toEqual([]);
  });

  it('resigns for the player, and undo takes the resignation back with the last move', async () => {
    const { computer, game } = newGame();
    game.start({ variant: 'bagh-chal', options: {}, side: 'goat', level: 'beginner' });
    game.playText('G@c3');
    game.resign();
    expect(game.thinking).toBe(false);
    expect(game.result).toEqual({ winner: 'tiger', reason: 'resign' });
    expect(game.yourTurn).toBe(false);
    computer.reply();
    await settle();
    expect(game.moves).toEqual(['G@c3']); // the answer to the superseded question is dropped
    game.undo();
    expect(game.result).toBeNull();
    expect(game.moves).toEqual([]);
  });

  it('tells its listeners of every move', async () => {
    const { computer, game } = newGame();
    const heard: string[] = [];
    const off = game.onMove((move) => heard.push(makeMove(move)));
    game.start({ variant: 'bagh-chal', options: {}, side: 'goat', level: 'beginner' });
    game.playText('G@c3');
    computer.reply('a1-b2');
    await settle();
    off();
    game.playText('G@a1');
    expect(heard).toEqual(['G@c3', 'a1-b2']);
  });
});

describe('the saved offline game', () => {
  it('survives a reload: moves, sides, level and result', async () => {
    const store = memoryStore();
    const { computer, game } = newGame({ store });
    game.start({
      variant: 'bagh-guti',
      options: { multiJump: true },
      side: 'goat',
      level: 'strong',
    });
    computer.reply(); // the tigers move first in Bagh Guti
    await settle();
    const first = game.moves[0]!;
    const reply = makeMove(legalMoves(game.game!)[0]!);
    game.playText(reply);
    expect(store.data.get(SAVED_GAME_KEY)).toContain('[Player "goat"]');

    // A reload while the computer thinks: the new page asks it again.
    const again = newGame({ store });
    expect(again.game.moves).toEqual([first, reply]);
    expect(again.game.player).toBe('goat');
    expect(again.game.level).toBe('strong');
    expect(again.game.game?.options).toEqual(game.game?.options);
    expect(again.computer.asked).toHaveLength(0);
    again.game.open();
    expect(again.computer.asked[0]).toMatchObject({ moves: [first, reply], level: 'strong' });

    again.game.resign();
    const third = newGame({ store });
    expect(third.game.result).toEqual({ winner: 'tiger', reason: 'resign' });
    third.game.open();
    expect(third.computer.asked).toHaveLength(0);
  });

  it('writes a RULES.md record that reads back the same', () => {
    const start = createGame('bagh-chal');
    if (!start.ok) throw new Error('no game');
    const played = playMoveTexts(start.value, ['G@c3', 'a1-b2']);
    if (!played.ok) throw new Error('no game');
    const saved = { game: played.value, player: 'goat', level: 'max', result: null, clock: null } as const;
    const text = makeSavedGame(saved);
    expect(text).toContain('1. G@c3 a1-b2 *');
    const back = parseSavedGame(text);
    expect(back?.game.moves).toEqual(played.value.moves);
    expect(back).toMatchObject({ player: 'goat', level: 'max', result: null });
  });

  it('ignores a corrupt or foreign stored value', () => {
    const start = createGame('bagh-chal');
    if (!start.ok) throw new Error('no game');
    const good = makeSavedGame({
      game: start.value,
      player: 'goat',
      level: 'beginner',
      result: null,
      clock: null,
    });
    const corrupt = [
      'not a record',
      '{"moves":["G@c3"]}',
      good.replace('[Player "goat"]', '[Player "cow"]'),
      good.replace('[Computer "beginner"]', '[Computer "grandmaster"]'),
      good.replace('[Computer "beginner"]\n', ''),
      good.replace('*\n', '1. G@c3 G@c3 *\n'), // an illegal move
      good.replace('[Variant "bagh-chal"]', '[Variant "chess"]'),
      good.replace('[Variant "bagh-chal"]', '[Variant "bagh-chal"]\n[Position "T3T/5/5/5/T3T g 20 0"]'),
      'x'.repeat(200_000),
    ];
    expect(parseSavedGame(good)).not.toBeNull();
    for (const value of corrupt) {
      expect(parseSavedGame(value)).toBeNull();
      const { game } = newGame({ store: memoryStore({ [SAVED_GAME_KEY]: value }) });
      expect(game.game).toBeNull();
    }
    const refusing: GameStore = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    const { game } = newGame({ store: refusing });
    expect(game.game).toBeNull();
    game.start({ variant: 'bagh-chal', options: {}, side: 'goat', level: 'beginner' });
    expect(game.playText('G@c3')).toBe(true); // plays on, unsaved
  });
});

describe('a timed offline game', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const timed = { variant: 'bagh-chal', options: {}, side: 'goat', level: 'casual' } as const;
  const control = { initialMs: 60_000, incrementMs: 2_000 };

  it('runs the clocks as a room does, and the person loses on time', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const store = memoryStore();
    const { computer, game } = newGame({ store });
    game.start({ ...timed, clock: control });
    await vi.advanceTimersByTimeAsync(120_000); // no clock runs before the first move
    expect(game.result).toBeNull();
    expect(game.playText('G@c3')).toBe(true); // free
    await vi.advanceTimersByTimeAsync(1_500);
    computer.reply('a1-b2');
    await vi.advanceTimersByTimeAsync(5);
    const afterReply = remainingAt(game.clock!, Date.now());
    expect(afterReply.tiger).toBe(60_000 - 1_500 + 2_000);
    expect(game.clock!.running).toBe('goat');
    await vi.advanceTimersByTimeAsync(59_000);
    expect(game.result).toBeNull();
    await vi.advanceTimersByTimeAsync(1_100);
    expect(game.result).toEqual({ winner: 'tiger', reason: 'timeout' });
    expect(game.yourTurn).toBe(false);
    expect(game.canUndo).toBe(false);
    expect(game.clock!.running).toBeNull();
    expect(remainingAt(game.clock!, Date.now())).toEqual({ tiger: afterReply.tiger, goat: 0 });
    expect(store.data.get(SAVED_GAME_KEY)).toContain('[Termination "timeout"]');
  });

  it('lets the computer lose on time too: its late move is not played', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { computer, game } = newGame();
    game.start({ ...timed, clock: { initialMs: 5_000, incrementMs: 0 } });
    game.playText('G@c3');
    await vi.advanceTimersByTimeAsync(5_100);
    expect(game.result).toEqual({ winner: 'goat', reason: 'timeout' });
    computer.reply('a1-b2');
    await vi.advanceTimersByTimeAsync(5);
    expect(game.moves).toEqual(['G@c3']);
  });

  it('times the computer out when it answers too late, and does not charge it the pause before its move shows', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const computer = handCranked();
    const game = new OfflineGame({ computer, store: null, random: sequence(1, 2, 3), minReplyMs: 300 });
    game.start({ ...timed, clock: { initialMs: 5_000, incrementMs: 0 } });
    game.playText('G@c3');
    await vi.advanceTimersByTimeAsync(100);
    computer.reply('a1-b2');
    await vi.advanceTimersByTimeAsync(199);
    expect(game.moves).toEqual(['G@c3']); // answered, not yet shown
    await vi.advanceTimersByTimeAsync(1);
    expect(game.moves).toEqual(['G@c3', 'a1-b2']);
    expect(remainingAt(game.clock!, Date.now())).toEqual({ tiger: 4_900, goat: 5_000 });

    game.playText('G@c4');
    vi.setSystemTime(Date.now() + 6_000); // the tab slept past the computer's time
    computer.reply();
    await vi.advanceTimersByTimeAsync(300);
    expect(game.result).toEqual({ winner: 'goat', reason: 'timeout' });
    expect(game.moves).toHaveLength(3);
  });

  it('refuses a move made after the time ran out, even before the clock’s timer fires', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { computer, game } = newGame();
    game.start({ ...timed, clock: { initialMs: 5_000, incrementMs: 0 } });
    game.playText('G@c3');
    computer.reply('a1-b2');
    await vi.advanceTimersByTimeAsync(5);
    vi.setSystemTime(Date.now() + 6_000); // the page slept: no timer has run
    expect(game.playText('G@c4')).toBe(false);
    expect(game.result).toEqual({ winner: 'tiger', reason: 'timeout' });
    expect(game.moves).toEqual(['G@c3', 'a1-b2']);
  });

  it('writes nothing as the page goes unless a clock runs (an untimed game is saved at each change)', () => {
    const store = memoryStore();
    const { game } = newGame({ store });
    game.open();
    game.start({ ...timed });
    game.playText('G@c3');
    store.data.set(SAVED_GAME_KEY, 'replaced by another tab');
    window.dispatchEvent(new Event('pagehide'));
    expect(store.data.get(SAVED_GAME_KEY)).toBe('replaced by another tab');
    game.close();
  });

  it('keeps the clocks in the saved game; the time the page was closed is not counted', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const store = memoryStore();
    const first = newGame({ store });
    first.game.open();
    first.game.start({ ...timed, clock: control });
    first.game.playText('G@c3');
    await vi.advanceTimersByTimeAsync(3_000);
    first.computer.reply('a1-b2');
    await vi.advanceTimersByTimeAsync(10_000); // the goats think 10 s, then reload: nothing unmounts
    window.dispatchEvent(new Event('pagehide'));
    const saved = store.data.get(SAVED_GAME_KEY)!;
    first.game.close(); // this test's stand-in for the page going away
    expect(saved).toContain('[TimeControl "60000+2000"]');
    expect(saved).toContain('[Clocks "59000 50000"]');

    await vi.advanceTimersByTimeAsync(3_600_000);
    const again = newGame({ store });
    again.game.open();
    expect(again.game.settings?.clock).toEqual(control);
    expect(again.game.clock!.running).toBe('goat');
    expect(remainingAt(again.game.clock!, Date.now())).toEqual({ tiger: 59_000, goat: 50_000 });
    again.game.undo(); // time spent stays spent; nobody's clock runs before the first move
    expect(remainingAt(again.game.clock!, Date.now() + 99_000)).toEqual({ tiger: 59_000, goat: 50_000 });
    again.game.close();

    const bads = ['[Clocks "59000 -5"]', '[Clocks "fast"]', '[Clocks " 5"]', '[Clocks "1e9 5"]'];
    for (const bad of [...bads, '[TimeControl "0+0"]', '[TimeControl "60000+2000+9"]']) {
      const broken = saved.replace(/\[(Clocks|TimeControl) "[^"]*"\]/, bad);
      expect(broken).not.toBe(saved);
      expect(parseSavedGame(broken)).toBeNull();
    }
    expect(parseSavedGame(saved.replace(/\[Clocks "[^"]*"\]\n/, ''))).toBeNull();
  });
});

describe('the offline game with the real engine (its worker run in this thread)', () => {
  it('gets legal replies from the engine at the beginner level', async () => {
    const worker: WorkerLike = {
      onmessage: null,
      postMessage(message: EngineMessage) {
        const answer = handleEngineMessage(message);
        setTimeout(() => worker.onmessage?.({ data: answer } as MessageEvent), 0);
      },
      terminate() {},
    };
    const game = new OfflineGame({ computer: new EngineClient(() => worker), store: null, minReplyMs: 0 });
    game.open();
    game.start({ variant: 'bagh-bandi', options: {}, side: 'tiger', level: 'beginner' });
    for (let turn = 0; turn < 3 && !game.result; turn++) {
      await expect.poll(() => game.yourTurn || !!game.result, { timeout: 5000 }).toBe(true);
      if (game.result) break;
      expect(game.play(legalMoves(game.game!)[0]!)).toBe(true);
    }
    await expect.poll(() => game.thinking, { timeout: 5000 }).toBe(false);
    expect(game.error).toBeNull();
    expect(game.moves.length).toBeGreaterThanOrEqual(5);
  });

  it('says so when the engine’s worker fails, and asks a new one on “try again”', async () => {
    let broken = true;
    const created: WorkerLike[] = [];
    const game = new OfflineGame({
      computer: new EngineClient(() => {
        const worker: WorkerLike = {
          onmessage: null,
          onerror: null,
          postMessage(message: EngineMessage) {
            if (broken) setTimeout(() => worker.onerror?.(new Event('error')), 0);
            else
              setTimeout(() => worker.onmessage?.({ data: handleEngineMessage(message) } as MessageEvent), 0);
          },
          terminate() {},
        };
        created.push(worker);
        return worker;
      }),
      store: null,
      minReplyMs: 0,
    });
    game.start({ variant: 'bagh-chal', options: {}, side: 'goat', level: 'beginner' });
    game.playText('G@c3');
    await expect.poll(() => game.error).toBe('The computer could not move: the engine failed');
    expect(game.thinking).toBe(false);
    broken = false;
    game.retry();
    await expect.poll(() => game.moves.length).toBe(2);
    expect(created).toHaveLength(2);
  });
});
