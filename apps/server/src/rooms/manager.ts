/**
 * The live rooms of this process: created here, loaded lazily from storage on first use (so
 * rooms come back after a restart), evicted from memory when empty and idle.
 */
import type { RoomEvent } from '@bagh/protocol';
import type { Options, Side, Variant } from '@bagh/rules';
import type { Logger } from 'pino';
import type { RoomStorage } from '../storage/types.js';
import type { Command, Reduction } from './reducer.js';
import { Room, type Settle } from './room.js';
import { newRoomState, type RoomState, recordOf, restoreRoomState, roomError } from './state.js';
import { hashSeatToken, newRoomId, newSeatToken } from './tokens.js';

export interface RoomManagerOptions {
  readonly storage: RoomStorage;
  readonly log: Logger;
  readonly broadcast: (event: RoomEvent) => void;
  readonly onEvent?: (event: RoomEvent) => void;
  /** Events kept per room for `since` replays. */
  readonly historySize: number;
  /** An empty room leaves memory after this long without commands. */
  readonly idleMs: number;
}

export interface CreatedRoom {
  readonly room: Room;
  readonly side: Side;
  readonly seatToken: string;
}

export class RoomManager {
  readonly #opts: RoomManagerOptions;
  readonly #rooms = new Map<string, Room>();
  readonly #loading = new Map<string, Promise<Room | null>>();
  readonly #sweeper: NodeJS.Timeout;
  #closing = false;

  constructor(opts: RoomManagerOptions) {
    this.#opts = opts;
    this.#sweeper = setInterval(() => this.sweep(Date.now()), Math.max(1000, Math.min(opts.idleMs, 60_000)));
    this.#sweeper.unref();
  }

  get liveRooms(): number {
    return this.#rooms.size;
  }

  async create(init: { variant: Variant; options: Partial<Options>; side: Side }): Promise<CreatedRoom> {
    const seatToken = newSeatToken();
    for (;;) {
      const state = newRoomState(newRoomId(), Date.now(), {
        variant: init.variant,
        options: init.options,
        creator: { side: init.side, tokenHash: hashSeatToken(seatToken) },
      });
      if (!(await this.#opts.storage.createRoom(recordOf(state)))) continue; // id collision: draw again
      const room = this.#wrap(state);
      this.#rooms.set(room.id, room);
      room.log.info({ variant: state.variant, creator: init.side }, 'room created');
      return { room, side: init.side, seatToken };
    }
  }

  /** The live room, loading it from storage if needed; null for an unknown id. */
  get(roomId: string): Promise<Room | null> {
    const live = this.#rooms.get(roomId);
    if (live) return Promise.resolve(live);
    const loading = this.#loading.get(roomId);
    if (loading) return loading;
    const load = (async () => {
      try {
        const record = await this.#opts.storage.loadRoom(roomId);
        if (!record) return null;
        const room = this.#wrap(restoreRoomState(record));
        this.#rooms.set(roomId, room);
        room.log.debug({ version: record.version, changes: record.changes.length }, 'room loaded');
        return room;
      } finally {
        this.#loading.delete(roomId);
      }
    })();
    this.#loading.set(roomId, load);
    return load;
  }

  /** Runs a command in the room's turn; NOT_FOUND for an unknown room. */
  async dispatch(roomId: string, command: Command, settle?: Settle): Promise<Reduction> {
    if (this.#closing && command.type !== 'disconnect') {
      return { ok: false, error: roomError('INTERNAL', 'the server is shutting down') };
    }
    const room = await this.get(roomId);
    if (!room) {
      const result: Reduction = { ok: false, error: roomError('NOT_FOUND', `no room ${roomId}`) };
      return result;
    }
    return room.dispatch(command, settle);
  }

  /** Drops empty rooms that have been idle for `idleMs` (they reload from storage on demand). */
  sweep(now: number): number {
    let evicted = 0;
    for (const [id, room] of this.#rooms) {
      if (room.idle && !room.occupied && now - room.lastActive >= this.#opts.idleMs) {
        this.#rooms.delete(id);
        evicted++;
      }
    }
    return evicted;
  }

  /** Refuses new commands and waits for the queued ones. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#sweeper);
    await Promise.allSettled([...this.#loading.values()]);
    await Promise.all([...this.#rooms.values()].map((room) => room.drain()));
  }

  #wrap(state: RoomState): Room {
    return new Room(
      state,
      {
        storage: this.#opts.storage,
        log: this.#opts.log.child({ roomId: state.roomId }),
        historySize: this.#opts.historySize,
        broadcast: this.#opts.broadcast,
        ...(this.#opts.onEvent ? { onEvent: this.#opts.onEvent } : {}),
      },
      Date.now(),
    );
  }
}
