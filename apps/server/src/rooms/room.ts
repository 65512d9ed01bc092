/**
 * One live room: its state, a serial queue of commands in front of the reducer, the durable
 * append of every event before it is broadcast, and a bounded history for resync.
 */

import { isDeepStrictEqual } from 'node:util';
import type { ChatMessage, RoomEvent, Snapshot } from '@bagh/protocol';
import { flagAt, makeMove, parseMove, type Result, type Side } from '@bagh/rules';
import type { Logger } from 'pino';
import type { BotPool } from '../bots/pool.js';
import type { ChangesSince, RoomStorage, StoredChange } from '../storage/types.js';
import { finishedBy } from './archive.js';
import { eventOf, parseStoredChange, replay, restoreRoomState, storedChangeOf } from './changes.js';
import { EventHistory } from './history.js';
import { abandonOf, isPresent, localPresence, seatConnected, seatOf, sideOfToken } from './presence.js';
import { type Command, type Reduction, reduce } from './reducer.js';
import { chatFor, snapshotOf } from './snapshot.js';
import {
  atMaxPlies,
  botSeatOf,
  clockInPlay,
  noRoom,
  otherSide,
  type PresenceCounts,
  type RoomError,
  type RoomState,
  roomError,
  timeRanOut,
} from './state.js';

export interface RoomDeps {
  readonly storage: RoomStorage;
  readonly log: Logger;
  readonly historySize: number;
  /** Sends an event to every socket in the room; called only after the event is durable. */
  readonly broadcast: (event: RoomEvent) => void;
  readonly onEvent?: (event: RoomEvent) => void;
  /** Delivers a chat message to its channel's audience; called after its event is broadcast. */
  readonly deliverChat?: (message: ChatMessage) => void;
  /** The clock commands are judged by (epoch ms). */
  readonly now: () => number;
  readonly abandonGraceMs: number;
  /** Where the computer's moves are searched; without it a bot seat never moves. */
  readonly bots?: RoomBots | undefined;
  /**
   * Several nodes: counts the room's sockets on the other nodes (null when they cannot be
   * counted now). Called in the room's turn before every command that changes presence.
   */
  readonly countRemote?: ((roomId: string) => Promise<PresenceCounts | null>) | undefined;
  /** Several nodes: called after each stored change of a public room (the cross-node live list). */
  readonly onStored?: ((state: RoomState) => void) | undefined;
  /** The store no longer has the room (a shared store lost it): it leaves memory. */
  readonly onGone?: ((room: Room) => void) | undefined;
  /** Another writer stored a change at the version this node appended at (counted, not logged). */
  readonly onConflict?: (() => void) | undefined;
}

/** Commands that move sockets, or recount them: with several nodes they count every node's sockets first. */
const COUNTED = new Set(['join', 'claim', 'connect', 'disconnect', 'presence']);

export interface RoomBots {
  readonly pool: BotPool;
  /** The least time between the move a bot answers and its answer (ms), so the UI shows both. */
  readonly minDelayMs: number;
}

/** The computer's move under way: for the position `key`, aimed at the room's latest version. */
interface BotWork {
  readonly key: string;
  readonly started: number;
  /** Aborted when the work is dropped: the pool forgets the request or stops its search. */
  readonly search: AbortController;
  move: string | null | undefined;
  /** A bot-move command is in the room's queue. */
  queued: boolean;
  timer: NodeJS.Timeout | undefined;
  /** Set while the player is gone: fires as their grace runs out, to drop the work. */
  graceTimer: NodeJS.Timeout | undefined;
}

/** Called inside the room's turn, after the events are durable and broadcast. */
export type Settle = (result: Reduction, room: Room) => void;

/** How one command's events are sent instead of the room's broadcast (a join leaves its socket out). */
export type Send = (event: RoomEvent) => void;

/** What a command stored, for the other nodes that hold the room: its changes after `from`. */
export interface Stored extends ChangesSince {
  readonly roomId: string;
  readonly from: number;
}

/**
 * The stored changes of a command, by the first event broadcast for it: with several nodes the
 * adapter sends them along (cluster/redis.ts), so that the other nodes holding the room apply
 * them to their cached room (`Room.feed`) and need not read the store before their next command.
 */
export const storedWith = new WeakMap<RoomEvent, Stored>();

/**
 * Events of a room whose stored presence is this node's sockets alone: the adapter delivers them
 * here only, without the Redis publish (cluster/redis.ts). Sound because a socket joining on
 * another node is judged there on the stored room (it holds none of the room's sockets yet) and
 * stores its presence: from the next append on (its version check) this node is not alone.
 */
export const localOnly = new WeakSet<RoomEvent>();

/** An append whose store call failed without an answer: what it would have stored and sent. */
interface Unsure {
  readonly from: number;
  readonly version: number;
  readonly changes: readonly StoredChange[];
  readonly events: readonly RoomEvent[];
  readonly chat: ChatMessage | undefined;
}

/** The changes a store keeps (a change with no data only moves the version on). */
const kept = (changes: readonly StoredChange[]): StoredChange[] =>
  changes.filter((change) => change.data !== null);

/** Whether the store's latest changes are exactly the unsure append's: it committed, nothing after it. */
function committed(unsure: Unsure, stored: ChangesSince): boolean {
  if (stored.version !== unsure.version) return false;
  const theirs = stored.changes.filter((change) => change.version > unsure.from);
  return isDeepStrictEqual(
    theirs.map((change) => [change.version, change.kind, change.data]),
    unsure.changes.map((change) => [change.version, change.kind, change.data]),
  );
}

/**
 * Work a command needs before it is judged (a rematch creates its room), done in the room's turn
 * on the state it will be judged on: the command to judge, or a refusal.
 */
export type Prepare = (state: RoomState, command: Command) => Promise<Result<Command, RoomError>>;

/** Where a socket is in the room: `side` for a seat, null for a spectator (`present`) or a stranger. */
export interface Place {
  readonly present: boolean;
  readonly side: Side | null;
}

const MAX_CONFLICT_RETRIES = 3;

/** Commands that timers send: they do not make a room active, and back off while the store fails. */
const TIMER_COMMANDS = new Set<Command['type']>(['flag', 'abandon-timer', 'bot-move']);

/** How many times an unsure append is looked for in the store (0.5 s, 1, 2 … 30 s apart: ~2 min). */
const UNSURE_CHECKS = 9;

/** The first wait before a timer tries again after the store refused its change, and the longest. */
const TIMER_RETRY_MS = 500;
const TIMER_RETRY_MAX_MS = 30_000;

/** The wait before a timer's next try after `failures` refusals in a row (0: none). */
export function timerBackoffMs(failures: number): number {
  return failures === 0 ? 0 : Math.min(TIMER_RETRY_MAX_MS, TIMER_RETRY_MS * 2 ** (failures - 1));
}

/**
 * How long the hold on a mover's clock (Room's #held) outlasts the store's last refusal of the
 * move: time for the page to send it again once the store is back.
 */
export const HOLD_AFTER_REFUSAL_MS = 15_000;

/** The side to move tried to play `move` at `at` (its first try) at `ply`, and the store refused it. */
interface HeldMove {
  readonly side: Side;
  readonly ply: number;
  /** Canonical: only this move is timed at the first try (another is a new decision, timed as usual). */
  readonly move: string;
  readonly at: number;
  /** The hold ends here, HOLD_AFTER_REFUSAL_MS after the last refusal. */
  readonly until: number;
}

/** The canonical text of the move a command plays, or null (no move, or none that parses). */
function movePlayed(command: Command): string | null {
  if (command.type !== 'move' && command.type !== 'bot-move') return null;
  const parsed = parseMove(command.move);
  return parsed.ok ? makeMove(parsed.value) : null;
}

const unavailable = (): Reduction => ({
  ok: false,
  error: roomError('UNAVAILABLE', 'the game could not be saved; try again'),
});

export class Room {
  readonly #deps: RoomDeps;
  readonly #history: EventHistory;
  readonly log: Logger;
  #state: RoomState;
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;
  #lastActive: number;
  #flagTimer: NodeJS.Timeout | undefined;
  #abandonTimer: NodeJS.Timeout | undefined;
  /** Retries the disconnects the store refused. */
  #departTimer: NodeJS.Timeout | undefined;
  /** Sockets gone whose disconnect the store refused: not here any more, to be stored later. */
  readonly #departed = new Set<string>();
  #stopped = false;
  /** The store no longer has the room: every command is answered NOT_FOUND. */
  #gone = false;
  /** Changes the store refused in a row (timers back off while it fails). */
  #storeFailures = 0;
  #bot: BotWork | null = null;
  /** A change fed from another node did not follow the cache: the next command reads the store. */
  #missed = false;
  /**
   * Appends to a shared store at the cached version that failed (a call that timed out is not
   * cancelled): one may commit all the same, and then no node broadcast its events. Kept until
   * the store moves past that version (then the one it holds is announced) or an append at it
   * succeeds (then none can commit: the version is taken).
   */
  #unsure: Unsure[] = [];
  /** Redis was away: this node's sockets may have missed events; shown the latest once the store answers. */
  #showLatest = false;
  /**
   * Reads the store again while an append is unsure or the latest event is to be shown: no other
   * command may come to do it (the mover's page waits before it tries again, a scripted client may
   * never), and the opponent would wait for the move's event meanwhile. Backs off like the timers.
   */
  #recheckTimer: NodeJS.Timeout | undefined;
  #rechecks = 0;
  /**
   * A move the store could not keep: while the mover's page keeps sending it (or re-joining, which
   * it does before it sends the move again), and HOLD_AFTER_REFUSAL_MS after the last refusal, the
   * mover's flag does not fall and that move, when played, is timed at its first try. The store's
   * outage is nobody's time; a page that never sends it again is timed as if there had been no
   * hold. This node's memory only: another node, or this one restarted, times the move as usual.
   */
  #held: HeldMove | null = null;

  constructor(state: RoomState, deps: RoomDeps, now: number) {
    this.#state = state;
    this.#deps = deps;
    this.#history = new EventHistory(deps.historySize);
    this.log = deps.log;
    this.#lastActive = now;
  }

  get id(): string {
    return this.#state.roomId;
  }
  get state(): RoomState {
    return this.#state;
  }
  // What the socket edge shows of the room (read in its turn, from `settle`).
  get version(): number {
    return this.#state.version;
  }
  placeOf(socketId: string): Place {
    return { present: isPresent(this.#state, socketId), side: seatOf(this.#state, socketId) };
  }
  snapshot(): Snapshot {
    return snapshotOf(this.#state);
  }
  chatFor(spectator: boolean): ChatMessage[] {
    return chatFor(this.#state, spectator);
  }
  get idle(): boolean {
    return this.#pending === 0;
  }
  get lastActive(): number {
    return this.#lastActive;
  }
  /**
   * Nothing left to tell the other nodes: no unsure append, no disconnect the store refused (the
   * stored presence is what they see). A room that is not stays in memory until its timers have
   * done that work. On one node nothing waits: a room loads again with nobody here.
   */
  get settled(): boolean {
    return this.#unsure.length === 0 && (this.#state.presence === null || this.#departed.size === 0);
  }
  /** A clock runs: the room stays in memory for its flag timer, which ends the game on time. */
  get clockRunning(): boolean {
    return clockInPlay(this.#state)?.running != null;
  }
  get occupied(): boolean {
    const { seats, spectators } = this.#state;
    const here = (socketId: string) => !this.#departed.has(socketId);
    return seats.tiger.sockets.some(here) || seats.goat.sockets.some(here) || spectators.some(here);
  }

  /** The events after `since` if all are still held, else null. */
  eventsSince(since: number): RoomEvent[] | null {
    return this.#history.since(since, this.#state.version);
  }

  /**
   * Runs the command in turn, stamped with the time it is judged at; `settle` sees the result
   * inside the same turn. A clock that ran out before the command is judged first. `send`, when
   * given, sends this command's own events instead of the room's broadcast.
   */
  dispatch(command: Command, settle?: Settle, prepare?: Prepare, send?: Send): Promise<Reduction> {
    this.#pending++;
    const run = this.#tail.then(async () => {
      const at = command.at ?? this.#deps.now();
      const clockAt = this.#clockAt(at, command);
      if (command.type !== 'flag' && timeRanOut(this.#state, clockAt)) {
        this.#noteStore(await this.#apply({ type: 'flag', version: this.#state.version, at, clockAt }));
      }
      if (
        (command.type === 'abandon-claim' || command.type === 'abandon-timer') &&
        this.#state.presence !== null &&
        this.#deps.countRemote
      ) {
        // Several nodes: an abandonment is judged on who is here now, on every node.
        const { at: judgedAt } = this.#state;
        const recount = await this.#apply({ type: 'presence', remote: NO_ONE, at });
        // Nobody came or went: the command that follows is judged at the time it was, not after.
        if (recount.ok && recount.value.events.length === 0) this.#state = { ...this.#state, at: judgedAt };
      }
      const retried = TIMER_COMMANDS.has(command.type) || this.#isDeparted(command);
      const result = this.#noteStore(await this.#apply({ ...command, at, clockAt }, prepare, send));
      this.#noteHold(command, at, result);
      this.#noteDeparture(command, result);
      // A timer retrying against a failing store keeps no empty room in memory.
      if (result.ok || !retried) this.#lastActive = Date.now();
      this.#schedule();
      settle?.(result, this);
      return result;
    });
    this.#tail = run.then(
      () => {
        this.#pending--;
      },
      (error: unknown) => {
        this.#pending--;
        this.log.error({ err: error, command: command.type }, 'room command failed');
      },
    );
    return run;
  }

  #isDeparted(command: Command): boolean {
    return command.type === 'disconnect' && this.#departed.has(command.socketId);
  }

  /** A socket that left while the store refused its disconnect is gone all the same: retried later. */
  #noteDeparture(command: Command, result: Reduction): void {
    if (!('socketId' in command)) return;
    if (result.ok) this.#departed.delete(command.socketId);
    else if (command.type === 'disconnect' && result.error.code === 'UNAVAILABLE')
      this.#departed.add(command.socketId);
  }

  /** The hold on the mover's clock (#held) if it stands at `at`: the same turn, within its time. */
  #holdAt(at: number): HeldMove | null {
    const held = this.#held;
    const stands =
      held !== null &&
      at <= held.until &&
      this.#state.result === null &&
      held.ply === this.#state.moveTexts.length &&
      held.side === this.#state.game.position.toMove;
    return stands ? held : null;
  }

  /**
   * When the clocks are read for `command` judged at `at`: while the hold stands, at the held
   * move's first try, for the flag and for that move; another move of the mover's is timed at
   * `at` (anyone else's, refused as out of turn, cannot make the mover's flag fall meanwhile).
   */
  #clockAt(at: number, command: Command): number {
    const held = this.#holdAt(at);
    if (held === null) return at;
    const move = movePlayed(command);
    const otherMove = move !== null && move !== held.move && this.#sideOf(command) === held.side;
    return otherMove ? at : Math.min(held.at, at);
  }

  /**
   * A move of the side to move that the store refused holds the mover's clock (#held) from its
   * first try; the mover's page re-joining meanwhile (refused too: a store that is read on a join)
   * keeps the hold standing.
   */
  #noteHold(command: Command, at: number, result: Reduction): void {
    if (result.ok || result.error.code !== 'UNAVAILABLE') return;
    const state = this.#state;
    const side = state.game.position.toMove;
    if (clockInPlay(state)?.running !== side) return;
    const held = this.#holdAt(at);
    const move = movePlayed(command);
    if (move !== null && this.#sideOf(command) === side) {
      const first = held?.move === move ? held.at : at;
      this.#held = { side, ply: state.moveTexts.length, move, at: first, until: at + HOLD_AFTER_REFUSAL_MS };
    } else if (
      held !== null &&
      (command.type === 'join' || command.type === 'connect') &&
      this.#sideOf(command) === side
    ) {
      this.#held = { ...held, until: at + HOLD_AFTER_REFUSAL_MS };
    }
  }

  /** The side a command comes from: the seat its socket (or its token) holds, the computer's for its move. */
  #sideOf(command: Command): Side | null {
    const state = this.#state;
    if (command.type === 'bot-move') return botSeatOf(state)?.side ?? null;
    if (command.type === 'join' && command.tokenHash !== undefined)
      return sideOfToken(state, command.tokenHash);
    return 'socketId' in command ? seatOf(state, command.socketId) : null;
  }

  /** Counts the store's refusals in a row (the timers' backoff); returns the result. */
  #noteStore(result: Reduction): Reduction {
    if (result.ok) this.#storeFailures = 0;
    else if (result.error.code === 'UNAVAILABLE') this.#storeFailures++;
    return result;
  }

  /**
   * In the room's turn, catches up if another node moved the room on (shared store only).
   * False when the store no longer has the room.
   */
  sync(): Promise<boolean> {
    return this.#inTurn('version check', () => this.#synced());
  }

  async #synced(): Promise<boolean> {
    if (this.#gone) return false;
    if (await this.#refresh()) return true;
    this.#vanished();
    return false;
  }

  /** Runs `work` in the room's turn (after the commands queued before it); a failure is logged as `what`. */
  #inTurn<T>(what: string, work: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(work);
    this.#tail = run.then(
      () => undefined,
      (error: unknown) => this.log.debug({ err: error }, `${what} failed`),
    );
    return run;
  }

  /**
   * Redis is back after an outage: what this node's sockets missed of the room (its events were
   * not published meanwhile, or not heard) is in the store. Caught up, the room's latest event goes
   * to this node's sockets: a page behind it sees a gap and re-joins with `since`, one that has it
   * drops it.
   */
  resync(): Promise<void> {
    this.#showLatest = true;
    return this.#recheckNow();
  }

  /**
   * In the room's turn: caught up with the store (an unsure append announced if it committed),
   * then the latest event shown here if due. The store failing (PostgreSQL away too): the timer
   * set by #schedule tries again.
   */
  #recheckNow(): Promise<void> {
    const again = () => this.#schedule();
    return this.#inTurn('store check', async () => {
      if (!(await this.#synced()) || !this.#showLatest) return;
      const version = this.#state.version;
      const latest = this.#history.since(version - 1, version)?.[0] ?? (await this.#storedEvent(version));
      this.#showLatest = false;
      if (!latest) return;
      localOnly.add(latest);
      this.#deps.broadcast(latest);
    }).then(again, again);
  }

  /** The event of the stored change at `version` (the cached room is at it), rebuilt from the store. */
  async #storedEvent(version: number): Promise<RoomEvent | undefined> {
    const stored = await this.#deps.storage.changesSince?.(this.id, version - 1);
    const last = stored?.changes.at(-1);
    if (!stored || stored.version !== version || last?.version !== version || last.data === null) return;
    return eventOf(parseStoredChange(last, this.id).change, this.#state);
  }

  /** Resolves once every queued command has run. */
  async drain(): Promise<void> {
    while (this.#pending > 0) await this.#tail;
  }

  /** Clears the timers (the room leaves memory or the server stops); commands still run. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#flagTimer);
    clearTimeout(this.#abandonTimer);
    clearTimeout(this.#departTimer);
    clearTimeout(this.#recheckTimer);
    this.#dropBot();
  }

  /**
   * A room just created or loaded: its running clock's flag timer is set (the game ends on time
   * though nobody comes), and the computer's turn starts if it is to move and its player is here.
   */
  resume(): void {
    if (this.clockRunning) this.#schedule();
    this.#scheduleBot();
  }

  /**
   * The computer's turn, a timer like the others: the search runs in the bot pool, and its move
   * arrives as a `bot-move` command carrying the room's version, after at least `minDelayMs`.
   * A command that does not change the position (presence, chat) keeps the search going; one
   * that does (a resign, a reload with another node's move) drops it, and the pool stops it.
   * A search starts only while the player is here (not for a room created and never joined, nor
   * for one loaded after a restart until they re-join) or the computer's clock runs; once they
   * are gone for the abandonment grace it is dropped, a shorter absence (a reconnect) keeps it.
   */
  #scheduleBot(): void {
    const bots = this.#deps.bots;
    const state = this.#state;
    const bot = botSeatOf(state);
    if (
      this.#stopped ||
      !bots ||
      !bot ||
      state.result !== null ||
      state.game.position.toMove !== bot.side ||
      atMaxPlies(state.game)
    ) {
      this.#dropBot();
      return;
    }
    const key = botKeyOf(state);
    const player = otherSide(bot.side);
    // With several nodes the node holding the player's socket searches; another that holds the
    // room (a spectator's) hears the moves and leaves it. The computer's own clock running (a
    // timed game, loaded after a restart too) and its player nowhere, it moves all the same:
    // waiting would lose it the game on time (every node holding the room then searches; the
    // version check keeps one move).
    const local = state.presence === null ? seatConnected(state, player) : localPresence(state)[player] > 0;
    const here = local || (clockInPlay(state)?.running === bot.side && !seatConnected(state, player));
    if (this.#bot && this.#bot.key !== key) this.#dropBot();
    const current = this.#bot;
    if (current) {
      if (!here && !this.#awaitPlayer(current, state.seats[player].goneSince)) return;
      if (here) {
        clearTimeout(current.graceTimer);
        current.graceTimer = undefined;
      }
      if (current.move !== undefined && !current.queued && current.timer === undefined)
        this.#playBot(current);
      return;
    }
    if (!here) return;
    const work: BotWork = {
      key,
      started: Date.now(),
      search: new AbortController(),
      move: undefined,
      queued: false,
      timer: undefined,
      graceTimer: undefined,
    };
    this.#bot = work;
    const request = {
      variant: state.variant,
      options: state.options,
      moves: [...state.moveTexts],
      level: bot.level,
      seed: seedOf(state.roomId, state.moveTexts.length),
    };
    bots.pool.move(request, { room: this.id, signal: work.search.signal }).then(
      (reply) => {
        if (this.#bot !== work) return;
        work.move = reply.move;
        if (reply.move === null) return;
        const wait = Math.max(0, work.started + bots.minDelayMs - Date.now());
        work.timer = setTimeout(() => {
          work.timer = undefined;
          if (this.#bot === work) this.#playBot(work);
        }, wait);
        work.timer.unref();
      },
      (error: unknown) => {
        if (this.#bot !== work) return;
        this.#dropBot();
        if (!this.#stopped) this.log.error({ err: error, level: bot.level }, 'bot move failed');
      },
    );
  }

  /**
   * The player is gone: keeps the work until their grace runs out (a timer looks again then);
   * false, the work dropped, once it has.
   */
  #awaitPlayer(work: BotWork, goneSince: number | null): boolean {
    const now = this.#deps.now();
    const left = (goneSince ?? now) + this.#deps.abandonGraceMs - now;
    if (left <= 0) {
      this.#dropBot();
      return false;
    }
    work.graceTimer ??= setTimeout(() => {
      work.graceTimer = undefined;
      if (this.#bot === work) this.#scheduleBot();
    }, left + 1);
    work.graceTimer.unref();
    return true;
  }

  /** Forgets the computer's move under way: its timers cleared, its search cancelled. */
  #dropBot(): void {
    const work = this.#bot;
    if (!work) return;
    this.#bot = null;
    clearTimeout(work.timer);
    clearTimeout(work.graceTimer);
    work.search.abort();
  }

  #playBot(work: BotWork): void {
    if (this.#stopped || work.move === null || work.move === undefined) return;
    // Another node moved the room on meanwhile (fed here, no command of this node): search again.
    if (work.key !== botKeyOf(this.#state)) {
      this.#dropBot();
      this.#scheduleBot();
      return;
    }
    work.queued = true;
    void this.dispatch({ type: 'bot-move', version: this.#state.version, move: work.move }, (result) => {
      work.queued = false;
      if (result.ok) {
        // Judged a no-op (the room moved on meanwhile): aim again if the position is still the same.
        this.#scheduleBot();
        return;
      }
      // Refused (the store failed): tried again with the other timers' backoff until the store is
      // back, so the computer still moves when nobody sends anything meanwhile.
      if (this.#bot !== work) return;
      if (result.error.code !== 'UNAVAILABLE') {
        this.log.warn({ code: result.error.code }, 'bot move refused');
        this.#dropBot();
        return;
      }
      if (this.#storeFailures <= 1) this.log.warn({ code: result.error.code }, 'bot move refused');
      work.timer = setTimeout(
        () => {
          work.timer = undefined;
          if (this.#bot === work) this.#playBot(work);
        },
        Math.max(TIMER_RETRY_MS, timerBackoffMs(this.#storeFailures)),
      );
      work.timer.unref();
    });
  }

  /**
   * Timers are commands carrying the version they were set at: one for the running clock's
   * flag, one for the end of an absent player's grace period. Set again after every command.
   */
  #schedule(): void {
    clearTimeout(this.#flagTimer);
    clearTimeout(this.#abandonTimer);
    clearTimeout(this.#departTimer);
    clearTimeout(this.#recheckTimer);
    this.#flagTimer = this.#abandonTimer = this.#departTimer = this.#recheckTimer = undefined;
    if (this.#stopped) return;
    const state = this.#state;
    const now = this.#deps.now();
    // While the store refuses changes, a timer that is due waits longer each time it fails.
    const retry = timerBackoffMs(this.#storeFailures);
    const clock = clockInPlay(state);
    const flag = clock ? flagAt(clock) : null;
    // A held clock's flag is judged when the hold ends (a timer before it would find no flag).
    const held = this.#holdAt(now);
    const due = flag !== null && held ? Math.max(flag, held.until + 1) : flag;
    if (due !== null) {
      this.#flagTimer = setTimeout(
        () => void this.dispatch({ type: 'flag', version: state.version }),
        Math.max(retry, due - now + 1),
      );
      this.#flagTimer.unref();
    }
    const gone = abandonOf(state);
    if (gone !== null && state.at < gone.claimableAt) {
      this.#abandonTimer = setTimeout(
        () => void this.dispatch({ type: 'abandon-timer', version: state.version }),
        Math.max(retry, gone.claimableAt - now + 1),
      );
      this.#abandonTimer.unref();
    }
    if (this.#departed.size > 0) {
      this.#departTimer = setTimeout(() => {
        for (const socketId of this.#departed) void this.dispatch({ type: 'disconnect', socketId });
      }, retry);
      this.#departTimer.unref();
    }
    if (this.#unsure.length > 0 && this.#rechecks >= UNSURE_CHECKS) {
      // Minutes on: its connection was dropped long ago (pg's query timeout), so the statement
      // is taken for dead. Should it commit all the same, the next command catches it up.
      this.log.warn(
        { from: this.#unsure[0]?.from },
        'an unsure append never showed in the store; no longer checked',
      );
      this.#unsure = [];
    }
    if (this.#unsure.length > 0 || this.#showLatest) {
      this.#recheckTimer = setTimeout(
        () => {
          this.#rechecks++;
          void this.#recheckNow();
        },
        timerBackoffMs(this.#rechecks + 1),
      );
      this.#recheckTimer.unref();
    } else this.#rechecks = 0;
    this.#scheduleBot();
  }

  /** Judges the clock now (a reader about to look at a room whose time may have run out). */
  async settleTime(): Promise<void> {
    const flag = { type: 'flag', version: this.#state.version } as const;
    if (timeRanOut(this.#state, this.#clockAt(this.#deps.now(), flag))) {
      await this.dispatch(flag);
    }
  }

  async #apply(asked: Command, prepare?: Prepare, send: Send = this.#deps.broadcast): Promise<Reduction> {
    if (this.#gone) return this.#vanished();
    // Every socket of the room on this node: judged on the cache without reading the stored
    // version first. Only a stored change is taken as is (the append's version check proves the
    // cache was current); a refusal or a no-op is judged again on the stored room.
    let unchecked = !prepare && this.#heard();
    if (!unchecked && !(await this.#refreshed(asked))) return this.#gone ? this.#vanished() : unavailable();
    const prepared = prepare ? await prepare(this.#state, asked) : { ok: true as const, value: asked };
    if (!prepared.ok) return prepared;
    const command = prepared.value;
    for (let attempt = 0; ; attempt++) {
      const result = reduce(this.#state, await this.#counted(command));
      if (!result.ok || result.value.events.length === 0) {
        if (unchecked) {
          unchecked = false;
          if (!(await this.#refreshed(asked))) return this.#gone ? this.#vanished() : unavailable();
          attempt--;
          continue;
        }
        if (result.ok) this.#state = result.value.state;
        return result;
      }
      const { state, events, changes, chat } = result.value;
      let appended: Awaited<ReturnType<RoomStorage['append']>>;
      const storing = changes.map(storedChangeOf);
      try {
        // A change that gives the room its result archives its game in the same transaction.
        appended = await this.#deps.storage.append(
          this.id,
          this.#state.version,
          storing,
          finishedBy(this.#state, state),
        );
      } catch (error) {
        // The store logs its failures (rate-limited); the command is answered and nothing changed
        // here. A shared store may commit it yet: the next command reads the store first.
        this.log.debug({ err: error, command: command.type, version: this.#state.version }, 'append failed');
        if (this.#deps.storage.currentVersion) {
          if (this.#unsure[0]?.from !== this.#state.version) {
            this.#unsure = [];
            this.#rechecks = 0;
          }
          this.#unsure.push({
            from: this.#state.version,
            version: state.version,
            changes: kept(storing),
            events,
            chat,
          });
          this.#missed = true;
        }
        return unavailable();
      }
      if (!appended.ok) {
        if (appended.storedVersion === null) return this.#vanished();
        // Another writer moved the room on: reload it, keep who is here, and judge again.
        // Expected now and then (another node's change not heard yet; two nodes without Redis in a
        // rolling deploy at every move): counted in a metric, logged at debug only.
        this.#deps.onConflict?.();
        this.log.debug({ expected: this.#state.version, stored: appended.storedVersion }, 'version conflict');
        if (attempt >= MAX_CONFLICT_RETRIES) {
          return {
            ok: false,
            error: roomError('STALE', 'the room changed meanwhile; re-join and try again'),
          };
        }
        try {
          if (!(await this.#refresh())) return this.#vanished();
        } catch (error) {
          this.log.debug({ err: error }, 'reload failed');
          return unavailable();
        }
        continue;
      }
      const from = this.#state.version;
      this.#state = state;
      this.#unsure = [];
      const first = events[0];
      if (first && this.#deps.storage.currentVersion) {
        storedWith.set(first, { roomId: this.id, from, version: state.version, changes: kept(storing) });
      }
      if (state.public) this.#deps.onStored?.(state);
      const alone = this.#alone();
      for (const event of events) {
        if (alone) localOnly.add(event);
        this.#history.push(event);
        this.#deps.onEvent?.(event);
        send(event);
      }
      if (chat) this.#deps.deliverChat?.(chat);
      if (this.log.isLevelEnabled('debug')) {
        this.log.debug({ version: state.version, events: events.map((e) => e.type) }, 'events applied');
      }
      return result;
    }
  }

  /** With several nodes, a presence command carries the other nodes' sockets, counted now. */
  async #counted(command: Command): Promise<Command> {
    const count = this.#deps.countRemote;
    const state = this.#state;
    if (!COUNTED.has(command.type) || state.presence === null || !count) return command;
    let remote: PresenceCounts | null = null;
    try {
      remote = await count(this.id);
    } catch (error) {
      this.log.warn({ err: error, command: command.type }, 'presence could not be counted across nodes');
    }
    // Not counted (a node is gone and not yet forgotten): the others' last known part.
    remote ??= remoteEstimate(state.presence, localPresence(state));
    return { ...command, remote } as Command;
  }

  /**
   * The store lost the room (a shared store emptied): it is gone on every node alike. Its timers
   * stop, it leaves memory, and every command is answered NOT_FOUND, as for an unknown room.
   */
  #vanished(): Reduction {
    if (!this.#gone) {
      this.#gone = true;
      this.log.warn('the store no longer has this room; dropping it');
      this.stop();
      this.#deps.onGone?.(this);
    }
    return { ok: false, error: roomError('NOT_FOUND', noRoom(this.id)) };
  }

  /** #refresh for a command: false when the room is gone (then vanished) or the store failed. */
  async #refreshed(command: Command): Promise<boolean> {
    try {
      if (await this.#refresh()) return true;
      this.#vanished();
    } catch (error) {
      this.log.debug({ err: error, command: command.type }, 'version check failed');
    }
    return false;
  }

  /**
   * The cache is most likely current. On PostgreSQL without Redis (no presence kept) the node is
   * meant to be alone: no one else writes its rooms (should one, the version check still catches
   * it). With several nodes, when this node holds a socket of the room: it hears every change the
   * other nodes store for the room (`feed`, sent with the room's events); a room without a socket
   * here (a timer's command) reads the store first.
   */
  #heard(): boolean {
    if (this.#missed || !this.#deps.storage.currentVersion) return false;
    if (this.#state.presence === null) return true;
    const here = localPresence(this.#state);
    return here.tiger + here.goat + here.spectators > 0;
  }

  /**
   * Several nodes: whether this node holds a socket of the room and the stored presence says
   * another node holds some too. Those are counted again now and then (`recountShared`): a node
   * that crashed sends no disconnects, and its players would show here as connected for good.
   */
  get sharedHere(): boolean {
    const total = this.#state.presence;
    if (total === null || this.#gone || this.#stopped) return false;
    const here = localPresence(this.#state);
    const local = here.tiger + here.goat + here.spectators;
    return (
      local > 0 && (total.tiger > here.tiger || total.goat > here.goat || total.spectators > here.spectators)
    );
  }

  /** Counts who is here across nodes again (several nodes); stores it when it changed. */
  recount(): Promise<Reduction> {
    return this.dispatch({ type: 'presence', remote: NO_ONE });
  }

  /** Several nodes, and the stored presence (every node's sockets) is this node's own. */
  #alone(): boolean {
    const total = this.#state.presence;
    if (total === null || !this.#deps.storage.currentVersion) return false;
    const here = localPresence(this.#state);
    return total.tiger === here.tiger && total.goat === here.goat && total.spectators === here.spectators;
  }

  /**
   * Another node stored `stored` (heard with the room's event): applied in the room's turn when
   * it follows the cached version; otherwise left, the next command reads the store. The room's
   * timers are set again from what it now holds, as the node that judged the change set its own:
   * should that node die, a flag still falls here (two nodes' flags store one result: the version
   * check).
   */
  feed(stored: Stored): void {
    void this.#inTurn('feed', async () => {
      if (this.#gone || stored.version <= this.#state.version) return;
      // A gap (events sent here only while another node was alone, or lost while Redis was away).
      if (this.#state.version !== stored.from || !this.#catchUp(stored.from, stored.version, stored.changes))
        this.#missed = true;
      else {
        // The version an unsure append was made at is taken: it can no longer commit.
        this.#unsure = [];
        this.#schedule();
      }
    });
  }

  /**
   * A shared store (several nodes): when another node moved the room on, apply the changes it
   * stored (`changesSince`), or reload the whole room when they cannot be had in one piece.
   * False when the store no longer has the room.
   */
  async #refresh(): Promise<boolean> {
    const storage = this.#deps.storage;
    if (!storage.currentVersion) return true;
    if (storage.changesSince) {
      const since = this.#state.version;
      const missing = await storage.changesSince(this.id, since);
      if (missing === null) return false;
      this.#missed = false;
      // Still at the version an unsure append was made at: it may yet commit, so it is kept.
      if (missing.version === since) return true;
      const unsure = this.#unsure;
      this.#unsure = [];
      if (missing.version > since && this.#catchUp(since, missing.version, missing.changes)) {
        const stored = unsure.find((append) => append.from === since && committed(append, missing));
        if (stored) this.#announce(stored);
        return true;
      }
      return this.#reload();
    }
    const stored = await storage.currentVersion(this.id);
    if (stored === null) return false;
    this.#missed = false;
    this.#unsure = [];
    return stored === this.#state.version || this.#reload();
  }

  /** The events (and chat) of a change this node stored without hearing so: sent now, as they would have been. */
  #announce({ from, version, changes, events, chat }: Unsure): void {
    this.log.info({ version }, 'a change whose store call failed was stored after all: broadcast now');
    const first = events[0];
    if (first) storedWith.set(first, { roomId: this.id, from, version, changes });
    for (const event of events) {
      this.#history.push(event);
      this.#deps.onEvent?.(event);
      this.#deps.broadcast(event);
    }
    if (chat) this.#deps.deliverChat?.(chat);
    if (this.#state.public) this.#deps.onStored?.(this.#state);
    // Its timers (a clock, a bot's turn), when no command follows to set them (sync).
    this.#schedule();
    // A join or claim answered UNAVAILABLE kept no socket here, yet its presence was stored with
    // it: who is here is counted again.
    if (this.#state.presence !== null && changes.some(({ kind }) => kind === 'seat' || kind === 'presence'))
      void this.recount();
  }

  /** Applies the changes after `since` up to `version` through replay; false when they do not fit. */
  #catchUp(since: number, version: number, changes: readonly StoredChange[]): boolean {
    let last = since;
    for (const change of changes) {
      if (change.version <= last || change.version > version) return false;
      last = change.version;
    }
    try {
      const caught = changes.reduce(replay, this.#state);
      this.#state = { ...caught, version };
      return true;
    } catch (error) {
      this.log.warn({ err: error, since, version }, 'catch-up failed; reloading the room');
      return false;
    }
  }

  async #reload(): Promise<boolean> {
    const record = await this.#deps.storage.loadRoom(this.id);
    if (!record) return false;
    const shared = this.#state.presence !== null;
    const fresh = restoreRoomState(record, {
      at: this.#state.at,
      abandonGraceMs: this.#deps.abandonGraceMs,
      sharedPresence: shared,
    });
    const { tiger, goat } = this.#state.seats;
    // One node: presence is this node's, kept; several: the stored presence across nodes.
    const gone = (side: 'tiger' | 'goat', held: typeof tiger) =>
      shared ? fresh.seats[side].goneSince : held.goneSince;
    this.#state = {
      ...fresh,
      seats: {
        tiger: { ...fresh.seats.tiger, sockets: tiger.sockets, goneSince: gone('tiger', tiger) },
        goat: { ...fresh.seats.goat, sockets: goat.sockets, goneSince: gone('goat', goat) },
      },
      spectators: this.#state.spectators,
    };
    return true;
  }
}

const NO_ONE: PresenceCounts = { tiger: 0, goat: 0, spectators: 0 };

/** The other nodes' part of the stored presence: the total less this node's sockets. */
function remoteEstimate(total: PresenceCounts, local: PresenceCounts): PresenceCounts {
  return {
    tiger: Math.max(0, total.tiger - local.tiger),
    goat: Math.max(0, total.goat - local.goat),
    spectators: Math.max(0, total.spectators - local.spectators),
  };
}

/** The position a computer's search is for. */
const botKeyOf = (state: RoomState): string => `${state.moveTexts.length} ${state.position}`;

/** A seed for the bot's choice at a ply of a room: reproducible, different from room to room. */
function seedOf(roomId: string, ply: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < roomId.length; i++) hash = Math.imul(hash ^ roomId.charCodeAt(i), 0x01000193);
  return (hash ^ Math.imul(ply + 1, 0x9e3779b1)) >>> 0;
}
