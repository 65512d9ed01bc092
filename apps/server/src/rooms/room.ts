/**
 * One live room: its state, a serial queue of commands in front of the reducer, the durable
 * append of every event before it is broadcast, and a bounded history for resync.
 */
import type { RoomEvent } from '@bagh/protocol';
import type { Logger } from 'pino';
import type { RoomStorage, StoredChange } from '../storage/types.js';
import { EventHistory } from './history.js';
import { type Command, type Reduction, reduce } from './reducer.js';
import { type RoomState, restoreRoomState, roomError, storedChange } from './state.js';

export interface RoomDeps {
  readonly storage: RoomStorage;
  readonly log: Logger;
  readonly historySize: number;
  /** Sends an event to every socket in the room; called only after the event is durable. */
  readonly broadcast: (event: RoomEvent) => void;
  readonly onEvent?: (event: RoomEvent) => void;
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

  /** Runs the command in turn; `settle` sees the result inside the same turn. */
  dispatch(command: Command, settle?: Settle): Promise<Reduction> {
    this.#pending++;
    const run = this.#tail.then(async () => {
      const result = await this.#apply(command);
      this.#lastActive = Date.now();
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

  /** Resolves once every queued command has run. */
  async drain(): Promise<void> {
    while (this.#pending > 0) await this.#tail;
  }

  async #apply(command: Command): Promise<Reduction> {
    for (let attempt = 0; ; attempt++) {
      const result = reduce(this.#state, command);
      if (!result.ok || result.value.events.length === 0) {
        if (result.ok) this.#state = result.value.state;
        return result;
      }
      const { state, events } = result.value;
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
      if (this.log.isLevelEnabled('debug')) {
        this.log.debug({ version: state.version, events: events.map((e) => e.type) }, 'events applied');
      }
      return result;
    }
  }

  async #reload(): Promise<boolean> {
    const record = await this.#deps.storage.loadRoom(this.id);
    if (!record) return false;
    const fresh = restoreRoomState(record);
    this.#state = {
      ...fresh,
      seats: {
        tiger: { ...fresh.seats.tiger, sockets: this.#state.seats.tiger.sockets },
        goat: { ...fresh.seats.goat, sockets: this.#state.seats.goat.sockets },
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
      return storedChange('move', event.version, { move: event.move });
    }
    if (event.type === 'seat' && event.side !== undefined) {
      const tokenHash = state.seats[event.side].tokenHash;
      if (tokenHash === null) throw new Error('a seat event for a free seat');
      return storedChange('seat', event.version, { side: event.side, tokenHash });
    }
    return { version: event.version, kind: event.type, data: null };
  });
}
