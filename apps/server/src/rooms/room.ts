/**
 * One live room: its state, a serial queue of commands in front of the reducer, the durable
 * append of every event before it is broadcast, and a bounded history for resync.
 */
import type { ChatMessage, RoomEvent } from '@bagh/protocol';
import type { Logger } from 'pino';
import type { RoomStorage, StoredChange } from '../storage/types.js';
import { EventHistory } from './history.js';
import { type Command, type Reduction, reduce } from './reducer.js';
import {
  abandonOf,
  flagAt,
  flagDue,
  type RoomState,
  restoreRoomState,
  roomError,
  storedChange,
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
}

/** Called inside the room's turn, after the events are durable and broadcast. */
export type Settle = (result: Reduction, room: Room) => void;

const MAX_CONFLICT_RETRIES = 3;

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
  #stopped = false;

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
  get idle(): boolean {
    return this.#pending === 0;
  }
  get lastActive(): number {
    return this.#lastActive;
  }
  get occupied(): boolean {
    const { seats, spectators } = this.#state;
    return seats.tiger.sockets.length + seats.goat.sockets.length + spectators.length > 0;
  }

  /** The events after `since` if all are still held, else null. */
  eventsSince(since: number): RoomEvent[] | null {
    return this.#history.since(since, this.#state.version);
  }

  /**
   * Runs the command in turn, stamped with the time it is judged at; `settle` sees the result
   * inside the same turn. A clock that ran out before the command is judged first.
   */
  dispatch(command: Command, settle?: Settle): Promise<Reduction> {
    this.#pending++;
    const run = this.#tail.then(async () => {
      const at = command.at ?? this.#deps.now();
      if (command.type !== 'flag' && flagDue(this.#state, at)) {
        await this.#apply({ type: 'flag', version: this.#state.version, at });
      }
      const result = await this.#apply({ ...command, at });
      this.#lastActive = Date.now();
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

  /** In the room's turn, reloads the room if another node moved it on (shared store only). */
  sync(): Promise<void> {
    const run = this.#tail.then(() => this.#refresh());
    this.#tail = run.catch((error: unknown) => {
      this.log.error({ err: error }, 'version check failed');
    });
    return run;
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
  }

  /**
   * Timers are commands carrying the version they were set at: one for the running clock's
   * flag, one for the end of an absent player's grace period. Set again after every command.
   */
  #schedule(): void {
    clearTimeout(this.#flagTimer);
    clearTimeout(this.#abandonTimer);
    this.#flagTimer = this.#abandonTimer = undefined;
    if (this.#stopped) return;
    const state = this.#state;
    const now = this.#deps.now();
    const due = flagAt(state);
    if (due !== null) {
      this.#flagTimer = setTimeout(
        () => void this.dispatch({ type: 'flag', version: state.version }),
        Math.max(0, due - now) + 1,
      );
      this.#flagTimer.unref();
    }
    const gone = abandonOf(state);
    if (gone !== null && state.at < gone.claimableAt) {
      this.#abandonTimer = setTimeout(
        () => void this.dispatch({ type: 'abandon-timer', version: state.version }),
        Math.max(0, gone.claimableAt - now) + 1,
      );
      this.#abandonTimer.unref();
    }
  }

  /** Judges the clock now (a reader about to look at a room whose time may have run out). */
  async settleTime(): Promise<void> {
    if (flagDue(this.#state, this.#deps.now())) {
      await this.dispatch({ type: 'flag', version: this.#state.version });
    }
  }

  async #apply(command: Command): Promise<Reduction> {
    try {
      await this.#refresh();
    } catch (error) {
      this.log.error({ err: error, command: command.type }, 'version check failed');
      return { ok: false, error: roomError('INTERNAL', 'the room could not be read; try again') };
    }
    for (let attempt = 0; ; attempt++) {
      const result = reduce(this.#state, command);
      if (!result.ok || result.value.events.length === 0) {
        if (result.ok) this.#state = result.value.state;
        return result;
      }
      const { state, events, chat } = result.value;
      let appended: Awaited<ReturnType<RoomStorage['append']>>;
      try {
        appended = await this.#deps.storage.append(this.id, this.#state.version, changesOf(events, state));
      } catch (error) {
        this.log.error({ err: error, command: command.type, version: this.#state.version }, 'append failed');
        return { ok: false, error: roomError('INTERNAL', 'the change could not be stored; try again') };
      }
      if (!appended.ok) {
        // Another writer moved the room on: reload it, keep who is here, and judge again.
        this.log.warn({ expected: this.#state.version, stored: appended.storedVersion }, 'version conflict');
        if (attempt >= MAX_CONFLICT_RETRIES || !(await this.#reload())) {
          return {
            ok: false,
            error: roomError('STALE', 'the room changed meanwhile; re-join and try again'),
          };
        }
        continue;
      }
      this.#state = state;
      for (const event of events) {
        this.#history.push(event);
        this.#deps.onEvent?.(event);
        this.#deps.broadcast(event);
      }
      if (chat) this.#deps.deliverChat?.(chat);
      if (this.log.isLevelEnabled('debug')) {
        this.log.debug({ version: state.version, events: events.map((e) => e.type) }, 'events applied');
      }
      return result;
    }
  }

  /** A shared store (several nodes): reload first when another node moved the room on. */
  async #refresh(): Promise<void> {
    const storage = this.#deps.storage;
    if (!storage.currentVersion) return;
    const stored = await storage.currentVersion(this.id);
    if (stored !== null && stored !== this.#state.version) await this.#reload();
  }

  async #reload(): Promise<boolean> {
    const record = await this.#deps.storage.loadRoom(this.id);
    if (!record) return false;
    const fresh = restoreRoomState(record, { at: this.#state.at, abandonGraceMs: this.#deps.abandonGraceMs });
    const { tiger, goat } = this.#state.seats;
    this.#state = {
      ...fresh,
      seats: {
        tiger: { ...fresh.seats.tiger, sockets: tiger.sockets, goneSince: tiger.goneSince },
        goat: { ...fresh.seats.goat, sockets: goat.sockets, goneSince: goat.goneSince },
      },
      spectators: this.#state.spectators,
    };
    return true;
  }
}

/** The durable part of each event; presence only moves the version on. */
function changesOf(events: readonly RoomEvent[], state: RoomState): StoredChange[] {
  return events.map((event): StoredChange => {
    if (event.type === 'move' && event.move !== undefined) {
      const clock = state.clock;
      if (clock && event.side !== undefined) {
        return storedChange('move', event.version, {
          move: event.move,
          at: clock.since,
          ms: clock.remaining[event.side],
        });
      }
      return storedChange('move', event.version, { move: event.move });
    }
    if (event.type === 'result' && state.result) {
      return storedChange('result', event.version, {
        ...state.result,
        at: state.at,
        clock: state.clock ? { ...state.clock.remaining } : null,
      });
    }
    if (event.type === 'draw' && event.side !== undefined) {
      const action = state.drawOffer === null ? 'decline' : 'offer';
      return storedChange('draw', event.version, { action, side: event.side });
    }
    if (event.type === 'rematch' && event.side !== undefined && state.rematch) {
      const { roomId } = state.rematch;
      return storedChange(
        'rematch',
        event.version,
        roomId ? { action: 'accept', side: event.side, roomId } : { action: 'offer', side: event.side },
      );
    }
    if (event.type === 'chat') {
      const message = state.chat[state.chat.length - 1];
      if (!message) throw new Error('a chat event without a message');
      return storedChange('chat', event.version, message);
    }
    if (event.type === 'seat' && event.side !== undefined) {
      const tokenHash = state.seats[event.side].tokenHash;
      if (tokenHash === null) throw new Error('a seat event for a free seat');
      return storedChange('seat', event.version, { side: event.side, tokenHash });
    }
    return { version: event.version, kind: event.type, data: null };
  });
}
