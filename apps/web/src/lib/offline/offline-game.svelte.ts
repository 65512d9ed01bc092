/**
 * A game against the computer held entirely in the browser: `@bagh/rules` judges every move,
 * the computer's moves come from the engine's Web Worker, and the game is saved in localStorage
 * after every change, so a reload resumes it. No server is involved. Optionally timed: the
 * computer's clock runs while it thinks; while the page is closed no clock runs. The rules of the
 * match (clocks, results, take-backs) are `@bagh/rules`'; this class only applies them.
 */
import type { BotMoveReply, BotMoveRequest, Level } from '@bagh/engine';
import type { TimeControl } from '@bagh/protocol';
import {
  type Clock,
  canTakeBack,
  clockAfterMove,
  createGame,
  flagDue,
  flaggedSide,
  type Game,
  gameAtPly,
  lastMoveIndexOf,
  type Move,
  makeMove,
  type Options,
  opposite,
  parseMove,
  play,
  playMoveText,
  type RecordResult,
  remainingAt,
  resignation,
  resultOf,
  resumeClock,
  runningSide,
  type Side,
  startClock,
  stopClock,
  timeout,
  type Variant,
} from '@bagh/rules';
import { m } from '../../paraglide/messages.js';
import { EngineClient } from '../engine/engine-client.js';
import { makeSavedGame, parseSavedGame, SAVED_GAME_KEY } from './saved-game.js';

/** What a new game is played with. */
export interface OfflineSettings {
  readonly variant: Variant;
  readonly options: Partial<Options>;
  /** The person's side; `random` is drawn when the game starts. */
  readonly side: Side | 'random';
  readonly level: Level;
  /** Absent or null: untimed. */
  readonly clock?: TimeControl | null;
}

/** Who finds the computer's moves: the engine's worker (EngineClient), or a stand-in in tests. */
export interface ComputerPlayer {
  move(request: BotMoveRequest): Promise<BotMoveReply>;
  /** Gets ready now (a worker loads the engine) rather than at the first move. */
  start?(): void;
  close?(): void;
}

/** Where the game is saved: localStorage, or a stand-in in tests; null saves nothing. */
export type GameStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface OfflineGameOptions {
  readonly computer?: ComputerPlayer;
  readonly store?: GameStore | null;
  /** A random 32-bit integer (the computer's seeds, a random side); crypto by default. */
  readonly random?: () => number;
  /** The least time before the computer's move is shown, so a quick reply does not flash by. */
  readonly minReplyMs?: number;
}

export type MoveListener = (move: Move, game: Game) => void;

const cryptoRandom = (): number => crypto.getRandomValues(new Uint32Array(1))[0]!;

/** localStorage, or null where the browser refuses it (some private modes throw on access). */
function browserStore(): GameStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** setTimeout's longest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class OfflineGame {
  readonly #computerPlayer: ComputerPlayer;
  readonly #store: GameStore | null;
  readonly #random: () => number;
  readonly #minReplyMs: number;
  readonly #listeners = new Set<MoveListener>();
  #flagTimer: ReturnType<typeof setTimeout> | undefined;

  #game = $state.raw<Game | null>(null);
  #player = $state<Side>('goat');
  #level = $state<Level>('beginner');
  /** A result the rules did not decide (a resignation). */
  #declared = $state.raw<RecordResult | null>(null);
  #clock = $state.raw<Clock | null>(null);
  #thinking = $state(false);
  #error = $state<string | null>(null);
  /** Bumped by every change that makes a question in flight to the computer moot. */
  #asked = 0;

  #moves = $derived(this.#game ? this.#game.moves.map(makeMove) : []);
  #result = $derived(this.#game ? resultOf(this.#game, this.#declared) : this.#declared);

  constructor(options: OfflineGameOptions = {}) {
    this.#computerPlayer = options.computer ?? new EngineClient();
    this.#store = options.store === undefined ? browserStore() : options.store;
    this.#random = options.random ?? cryptoRandom;
    this.#minReplyMs = options.minReplyMs ?? 300;
    this.#load();
  }

  /** The game, or null before the first one. */
  get game(): Game | null {
    return this.#game;
  }
  get player(): Side {
    return this.#player;
  }
  get computer(): Side {
    return opposite(this.#player);
  }
  get level(): Level {
    return this.#level;
  }
  /** A timed game's clocks, else null. */
  get clock(): Clock | null {
    return this.#clock;
  }
  /** Move texts so far (R40). */
  get moves(): readonly string[] {
    return this.#moves;
  }
  get result(): RecordResult | null {
    return this.#result;
  }
  /** The computer is looking for its move. */
  get thinking(): boolean {
    return this.#thinking;
  }
  get error(): string | null {
    return this.#error;
  }
  /** The person may move now. */
  get yourTurn(): boolean {
    return !!this.#game && !this.#result && this.#game.position.toMove === this.#player;
  }
  /** The person has a move to take back (not once their time ran out). */
  get canUndo(): boolean {
    return !!this.#game && canTakeBack(this.#game, this.#player, this.#result);
  }
  /** The game as a RULES.md record (what is saved). */
  get record(): string | null {
    return this.#game ? this.#saved(this.#game) : null;
  }
  /** The settings of the current game (to offer the same again). */
  get settings(): OfflineSettings | null {
    const game = this.#game;
    return game
      ? {
          variant: game.variant,
          options: game.options,
          side: this.#player,
          level: this.#level,
          clock: this.#clock?.control ?? null,
        }
      : null;
  }

  /** Starts the computer's engine, and lets it move if it is its turn (a reload while it thought). */
  open(): void {
    this.#computerPlayer.start?.();
    // A reload or a closed tab unmounts nothing: the clocks are saved as the page goes.
    if (typeof window !== 'undefined') window.addEventListener('pagehide', this.#saveNow);
    this.#watchClock();
    this.#askIfDue();
  }

  /** Ends this page's use of the engine; the saved game stays. */
  close(): void {
    this.#supersede();
    clearTimeout(this.#flagTimer);
    if (typeof window !== 'undefined') window.removeEventListener('pagehide', this.#saveNow);
    this.#save();
    this.#computerPlayer.close?.();
  }

  /** A running clock is saved as the page goes; the rest was saved when it changed. */
  readonly #saveNow = (): void => {
    if (this.#clock?.running) this.#save();
  };

  /** A new game; the computer moves first if it has the first move. */
  start(settings: OfflineSettings): void {
    const created = createGame(settings.variant, settings.options);
    if (!created.ok) {
      this.#error = created.error.message;
      return;
    }
    this.#supersede();
    this.#player = settings.side === 'random' ? (this.#random() % 2 === 0 ? 'goat' : 'tiger') : settings.side;
    this.#level = settings.level;
    this.#declared = null;
    this.#error = null;
    this.#game = created.value;
    this.#clock = settings.clock ? startClock(settings.clock, Date.now()) : null;
    this.#save();
    this.#watchClock();
    this.#askIfDue();
  }

  /** The person's move; false (and `error` says why) when it is not theirs to make or not legal. */
  play(move: Move): boolean {
    const game = this.#game;
    this.#timeOutIfDue();
    if (!game || !this.yourTurn) return false;
    const next = play(game, move);
    if (!next.ok) {
      this.#error = next.error.message;
      return false;
    }
    this.#advance(next.value, move);
    return true;
  }

  /** The person's move as text (R40). */
  playText(text: string): boolean {
    const parsed = parseMove(text);
    if (!parsed.ok) {
      this.#error = parsed.error.message;
      return false;
    }
    return this.play(parsed.value);
  }

  /**
   * Takes back the person's last move and the computer's reply to it (or its search for one);
   * a finished game goes on again.
   */
  undo(): void {
    const game = this.#game;
    this.#timeOutIfDue();
    if (!game || !this.canUndo) return;
    this.#supersede();
    this.#declared = null;
    this.#error = null;
    const back = gameAtPly(game, lastMoveIndexOf(game, this.#player));
    this.#game = back;
    // Time spent stays spent; the person's clock runs again (not before the first move).
    if (this.#clock) this.#clock = resumeClock(this.#clock, runningSide(back, null), Date.now());
    this.#save();
    this.#watchClock();
  }

  resign(): void {
    this.#timeOutIfDue();
    if (!this.#game || this.#result) return;
    this.#end(resignation(this.#player));
  }

  /** Asks the computer again after it failed. */
  retry(): void {
    this.#error = null;
    this.#askIfDue();
  }

  dismissError(): void {
    this.#error = null;
  }

  /** Calls `listener` after every move, the person's and the computer's; returns its unsubscriber. */
  onMove(listener: MoveListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** `next` after `move`, made at `madeAt` (the computer: when it answered, before its move is shown). */
  #advance(next: Game, move: Move, madeAt = Date.now()): void {
    const mover = this.#game?.position.toMove ?? next.position.toMove;
    if (this.#clock) {
      if (flagDue(this.#clock, madeAt)) {
        this.#timeOutIfDue();
        return;
      }
      // The next clock runs from now: the pause before the computer's move is shown is nobody's.
      this.#clock = clockAfterMove(this.#clock, mover, madeAt, {
        resumesAt: Date.now(),
        over: !!next.outcome,
      });
    }
    this.#game = next;
    this.#error = null;
    this.#save();
    this.#watchClock();
    for (const listener of this.#listeners) listener(move, next);
    this.#askIfDue();
  }

  #askIfDue(): void {
    const game = this.#game;
    if (!game || this.#result || this.#thinking || game.position.toMove !== this.computer) return;
    const asked = ++this.#asked;
    this.#thinking = true;
    const request: BotMoveRequest = {
      variant: game.variant,
      options: game.options,
      moves: this.#moves,
      level: this.#level,
      seed: this.#random() >>> 0,
    };
    const answered = this.#computerPlayer.move(request).then((reply) => ({ reply, at: Date.now() }));
    Promise.all([answered, wait(this.#minReplyMs)]).then(
      ([{ reply, at }]) => {
        if (asked !== this.#asked) return;
        this.#thinking = false;
        if (reply.move === null) {
          this.#error = m.computer_no_move();
          return;
        }
        // The worker's answer is judged like the person's moves.
        const played = playMoveText(game, reply.move);
        if (played.ok) this.#advance(played.value, played.value.moves.at(-1)!, at);
        else this.#error = m.computer_move_refused({ why: played.error.message });
      },
      (error: unknown) => {
        if (asked !== this.#asked) return;
        this.#thinking = false;
        this.#error = m.computer_failed({ why: error instanceof Error ? error.message : String(error) });
      },
    );
  }

  /** Ends the game with a result the rules did not decide; the clocks stop. */
  #end(result: RecordResult): void {
    this.#supersede();
    this.#declared = result;
    if (this.#clock) this.#clock = stopClock(this.#clock, Date.now());
    clearTimeout(this.#flagTimer);
    this.#save();
  }

  /** The running clock has reached zero (the timer may lag in a background tab): its side loses on time. */
  #timeOutIfDue(): void {
    const loser = this.#clock && flaggedSide(this.#clock, Date.now());
    if (loser && !this.#result) this.#end(timeout(loser));
  }

  /** Wakes when the running clock would reach zero (again, should the timer fire early). */
  #watchClock(): void {
    clearTimeout(this.#flagTimer);
    const clock = this.#clock;
    if (!clock?.running || this.#result) return;
    const left = remainingAt(clock, Date.now())[clock.running];
    this.#flagTimer = setTimeout(
      () => {
        this.#timeOutIfDue();
        this.#watchClock(); // fired early: wait again (after a timeout, it stops)
      },
      Math.min(left + 1, MAX_TIMER_MS),
    );
  }

  /** A question in flight to the computer is answered into the void. */
  #supersede(): void {
    this.#asked++;
    this.#thinking = false;
  }

  #saved(game: Game): string {
    const clock = this.#clock && {
      control: this.#clock.control,
      remaining: remainingAt(this.#clock, Date.now()),
    };
    return makeSavedGame({ game, player: this.#player, level: this.#level, result: this.#result, clock });
  }

  #load(): void {
    let text: string | null = null;
    try {
      text = this.#store?.getItem(SAVED_GAME_KEY) ?? null;
    } catch {
      return;
    }
    const saved = parseSavedGame(text);
    if (!saved) return;
    this.#game = saved.game;
    this.#player = saved.player;
    this.#level = saved.level;
    this.#declared = saved.game.outcome ? null : saved.result;
    if (saved.clock) {
      // The time the page was closed is not counted: the clock to move runs again from now.
      this.#clock = { ...saved.clock, running: runningSide(saved.game, this.#result), since: Date.now() };
    }
  }

  #save(): void {
    const game = this.#game;
    if (!game) return;
    try {
      this.#store?.setItem(SAVED_GAME_KEY, this.#saved(game));
    } catch {
      // storage full or refused: the game goes on unsaved
    }
  }
}
