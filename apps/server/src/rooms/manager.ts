/**
 * The live rooms of this process: created here, loaded lazily from storage on first use (so
 * rooms come back after a restart), evicted from memory when empty and idle.
 */
import {
  type BotLevel,
  type ChatMessage,
  GameResult,
  type LiveRoom,
  type RoomEvent,
  type SeatAssigned,
  type TimeControl,
} from '@bagh/protocol';
import {
  type GameRecord,
  makeMove,
  makePosition,
  type Options,
  type Result,
  SIDES,
  type Side,
  type Variant,
} from '@bagh/rules';
import type { Logger } from 'pino';
import type { Admission } from '../limits/rooms.js';
import { StoreUnavailableError } from '../storage/guarded.js';
import type { RoomRecord, RoomStorage, StoredData } from '../storage/types.js';
import { archivedGameOf, finishedAtOf } from './archive.js';
import { restoreRoomState } from './changes.js';
import { type Command, judge, type Reduction } from './reducer.js';
import { type Prepare, Room, type RoomBots, type Send, type Settle, type Stored } from './room.js';
import { snapshotOf } from './snapshot.js';
import {
  botSeatOf,
  DEFAULT_ABANDON_GRACE_MS,
  MAX_FORMER_TOKENS,
  newRoomState,
  noRoom,
  otherSide,
  type PresenceCounts,
  type RoomEnv,
  type RoomError,
  type RoomSetup,
  type RoomState,
  recordOf,
  roomError,
} from './state.js';
import { hashSeatToken, newRoomId, newSeatToken } from './tokens.js';

/** With a shared store, a public room stays listed while something was stored for it this recently. */
const LIVE_WINDOW_MS = 10 * 60_000;

export interface RoomManagerOptions {
  readonly storage: RoomStorage;
  readonly log: Logger;
  readonly broadcast: (event: RoomEvent) => void;
  readonly onEvent?: (event: RoomEvent) => void;
  /** Events kept per room for `since` replays. */
  readonly historySize: number;
  /** An empty room leaves memory after this long without commands. */
  readonly idleMs: number;
  readonly deliverChat?: (message: ChatMessage) => void;
  /** How long a seat must be empty before the opponent may claim the game (default 30 s). */
  readonly abandonGraceMs?: number;
  /** The clock rooms judge by (default Date.now). */
  readonly now?: () => number;
  /** Where bot seats get their moves; without it the computer never moves. */
  readonly bots?: RoomBots;
  /**
   * Several nodes: counts a room's sockets on the other nodes (see RoomDeps.countRemote). Given,
   * presence is counted across nodes and stored with the room.
   */
  readonly countRemote?: (roomId: string) => Promise<PresenceCounts | null>;
  /** Several nodes: how many there are now, and how many have started and stopped (ClusterMembers). */
  readonly clusterMembers?: () => Promise<ClusterMembers>;
  /** How often (ms) the nodes are looked at, to recount shared rooms when one left (10 s). */
  readonly presenceRecountMs?: number;
  /** Called for every room this node creates: new, imported or a rematch. */
  readonly onCreated?: (room: Room) => void;
  /** Called when a room's append meets a change another writer stored at its version. */
  readonly onConflict?: () => void;
}

export interface CreatedRoom {
  readonly room: Room;
  readonly side: Side;
  readonly seatToken: string;
}

export interface RematchRequest {
  readonly socketId: string;
  /** An accept; else an offer (which, against the computer, starts the rematch too). */
  readonly accept: boolean;
  /** Asked just before the new room is created: may this player create a room now? */
  readonly admit: (againstBot: boolean) => Promise<Admission>;
}

/** A player's seat in the rematch room, for their sockets in the old one. */
export interface SeatAssignment {
  readonly sockets: readonly string[];
  readonly seat: SeatAssigned;
}

export interface Rematched {
  /** The version of the old room's event. */
  readonly version: number;
  /** The rematch room, once it started (not after a mere offer). */
  readonly started?: { readonly roomId: string; readonly seats: readonly SeatAssignment[] };
}

export type RematchResult = Result<Rematched, RoomError>;

/** Over how long the rooms' resyncs are spread (RoomManager.resync). */
const RESYNC_SPREAD_MS = 2000;

/**
 * The cluster's nodes as a node sees them: `nodes` alive now; `starts` and `stops`, how many have
 * started and stopped gracefully in the cluster's life. `starts − stops − nodes` counts the nodes
 * that left unannounced (crashed): it rises when one crashes, even if it came back between two
 * looks (then `nodes` is as it was); a graceful restart or a new node leaves it as it was.
 */
export interface ClusterMembers {
  readonly nodes: number;
  readonly starts: number;
  readonly stops: number;
}

const crashed = (m: ClusterMembers) => m.starts - m.stops - m.nodes;

export class RoomManager {
  readonly #opts: RoomManagerOptions;
  readonly #rooms = new Map<string, Room>();
  readonly #loading = new Map<string, Promise<Room | null>>();
  readonly #sweeper: NodeJS.Timeout;
  #clockWatch: NodeJS.Timeout | undefined;
  #recounter: NodeJS.Timeout | undefined;
  #members: ClusterMembers | undefined;
  #looking = false;
  /** Runs the timed games' watch now (set by watchClocks). */
  #watchClocksNow: (() => void) | undefined;
  readonly #now: () => number;
  readonly #graceMs: number;
  /** The settings every room state of this node is built with. */
  readonly #env: Omit<RoomEnv, 'at'>;
  #closing = false;

  constructor(opts: RoomManagerOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
    this.#graceMs = opts.abandonGraceMs ?? DEFAULT_ABANDON_GRACE_MS;
    this.#env = { abandonGraceMs: this.#graceMs, sharedPresence: opts.countRemote !== undefined };
    this.#sweeper = setInterval(() => this.sweep(Date.now()), Math.max(1000, Math.min(opts.idleMs, 60_000)));
    this.#sweeper.unref();
    if (opts.countRemote && opts.clusterMembers) {
      this.#recounter = setInterval(
        () => void this.#watchNodes(),
        opts.presenceRecountMs ?? PRESENCE_RECOUNT_MS,
      );
      this.#recounter.unref();
      // The first look at once: a node that crashes within this node's first interval is seen.
      void this.#watchNodes();
    }
  }

  /**
   * Several nodes: when there are fewer than at the last look (a node crashed: it sends no
   * disconnects), or more crashed since (one may have come back in between: ClusterMembers),
   * the rooms this node shares with another count who is here again, so that the crashed node's
   * players show as gone (their abandonment grace starts), and the timed games in play this node
   * lacks are loaded, so that the crashed node's flags still fall. The count of nodes is then
   * already without it, so no recount waits for its answer.
   */
  async #watchNodes(): Promise<void> {
    if (this.#looking) return; // the last look still waits (for Redis): its answer is the newer
    this.#looking = true;
    let now: ClusterMembers;
    try {
      now = await this.#opts.clusterMembers!();
    } catch {
      return; // Redis away: looked at again next time
    } finally {
      this.#looking = false;
    }
    const before = this.#members;
    this.#members = now;
    if (before === undefined || this.#closing) return;
    if (now.nodes >= before.nodes && crashed(now) <= crashed(before)) return;
    const rooms = this.recountShared();
    this.#opts.log.info(
      { nodes: now.nodes, before: before.nodes, crashed: crashed(now) - crashed(before), rooms },
      'a node left: shared rooms count who is here again',
    );
    this.#watchClocksNow?.();
  }

  /**
   * Counts again who is here in each room whose sockets this node shares with another, spread
   * over RECOUNT_SPREAD_MS. Returns how many rooms will be counted.
   */
  recountShared(): number {
    let counted = 0;
    for (const room of this.#rooms.values()) {
      if (this.#closing || !room.sharedHere) continue;
      counted++;
      setTimeout(() => void (this.#closing || room.recount()), Math.random() * RECOUNT_SPREAD_MS).unref();
    }
    return counted;
  }

  get liveRooms(): number {
    return this.#rooms.size;
  }

  async create(init: {
    variant: Variant;
    options: Partial<Options>;
    side: Side;
    clock?: TimeControl | null | undefined;
    public?: boolean | undefined;
    /** The other seat is the computer's, at this level. */
    bot?: BotLevel | undefined;
  }): Promise<CreatedRoom> {
    const seatToken = newSeatToken();
    const room = await this.#store({
      variant: init.variant,
      options: init.options,
      creator: { side: init.side, tokenHash: hashSeatToken(seatToken) },
      ...(init.bot ? { bot: { side: otherSide(init.side), level: init.bot } } : {}),
      clock: init.clock ?? null,
      public: init.public ?? false,
    });
    room.log.info({ variant: room.state.variant, creator: init.side, bot: init.bot }, 'room created');
    return { room, side: init.side, seatToken };
  }

  /**
   * A rematch of a finished room: the same variant, options, time control and visibility, both
   * seats taken with the sides swapped (the computer, in a room against it, at the same level).
   * Returns each new seat's token, by the side it is for (none for the computer's).
   */
  async createRematch(of: RoomState): Promise<{ room: Room; tokens: Partial<Record<Side, string>> }> {
    const oldBot = botSeatOf(of);
    if (oldBot) {
      const side = oldBot.side; // the player takes the computer's old side
      const token = newSeatToken();
      const room = await this.#store({
        variant: of.variant,
        options: of.options,
        creator: { side, tokenHash: hashSeatToken(token), ...formerTokens(of, otherSide(side)) },
        bot: { side: otherSide(side), level: oldBot.level },
        clock: of.clock?.control ?? null,
        public: of.public,
        rematchOf: of.roomId,
      });
      room.log.info({ rematchOf: of.roomId, bot: oldBot.level }, 'rematch against the computer created');
      return { room, tokens: { [side]: token } };
    }
    const tokens: Record<Side, string> = { tiger: newSeatToken(), goat: newSeatToken() };
    const room = await this.#store({
      variant: of.variant,
      options: of.options,
      // The old tiger plays goat (and the other way round); seats hold hashes of the new tokens.
      creator: { side: 'tiger', tokenHash: hashSeatToken(tokens.tiger), ...formerTokens(of, 'goat') },
      opponent: { side: 'goat', tokenHash: hashSeatToken(tokens.goat), ...formerTokens(of, 'tiger') },
      clock: of.clock?.control ?? null,
      public: of.public,
      rematchOf: of.roomId,
    });
    room.log.info({ rematchOf: of.roomId }, 'rematch created');
    return { room, tokens };
  }

  /**
   * A player's rematch command, in the old room's turn: an offer, or the start of the rematch (an
   * accept, or an offer against the computer, which always plays again). The accept is judged
   * before the new room is created, so that a refused one creates none.
   */
  async rematch(
    roomId: string,
    request: RematchRequest,
    settle?: (result: RematchResult) => void,
  ): Promise<RematchResult> {
    const { socketId } = request;
    let started: { room: Room; tokens: Partial<Record<Side, string>> } | undefined;
    const prepare: Prepare = async (state, offer) => {
      const againstBot = botSeatOf(state) !== null;
      if (!request.accept && !againstBot) return { ok: true, value: offer };
      const accept = { type: 'rematch-accept', socketId, at: offer.at } as const;
      const judged = judge(state, { ...accept, roomId: state.roomId }); // a stand-in id
      if (!judged.ok) return judged;
      const admission = await request.admit(againstBot);
      if (!admission.ok) return { ok: false, error: roomError('RATE_LIMITED', admission.message) };
      try {
        started = await this.createRematch(state);
      } catch (error) {
        admission.cancel();
        if (!(error instanceof StoreUnavailableError)) throw error;
        return { ok: false, error: roomError('UNAVAILABLE', 'the game could not be saved; try again') };
      }
      admission.created(started.room.id);
      return { ok: true, value: { ...accept, roomId: started.room.id } };
    };
    let settled: RematchResult | undefined;
    // Dispatched as an offer; `prepare` makes it the accept of the new room when the rematch starts.
    const result = await this.dispatch(
      roomId,
      { type: 'rematch-offer', socketId },
      (res, room) => {
        settled = res.ok
          ? { ok: true, value: { version: res.value.version, ...startedIn(room, started) } }
          : res;
        settle?.(settled);
      },
      prepare,
    );
    if (settled) return settled;
    return result.ok ? { ok: true, value: { version: result.value.version } } : result;
  }

  /** A finished room replaying a parsed game record (no seats). */
  async importRecord(record: GameRecord): Promise<Room> {
    const { game } = record;
    const started = newRoomState('probe-only', 0, {
      variant: game.variant,
      options: game.options,
      creator: null,
    });
    const start = makePosition(game.start);
    const room = await this.#store({
      variant: game.variant,
      options: game.options,
      creator: null,
      imported: {
        ...(start !== started.position ? { start } : {}),
        moves: game.moves.map(makeMove),
        result: record.result ? GameResult.parse(record.result) : null,
        headers: { ...record.headers },
      },
    });
    room.log.info({ variant: game.variant, moves: game.moves.length }, 'record imported');
    return room;
  }

  async #store(setup: RoomSetup): Promise<Room> {
    for (;;) {
      const state = newRoomState(newRoomId(), this.#now(), setup, this.#env);
      if (!(await this.#opts.storage.createRoom(recordOf(state)))) continue; // id collision: draw again
      const room = this.#wrap(state);
      this.#rooms.set(room.id, room);
      this.#opts.onCreated?.(room);
      // Listed before the creator hears of the room, so any node's /api/live shows it at once.
      if (state.public) await this.#indexLive(state);
      room.resume();
      return room;
    }
  }

  /**
   * The public rooms in play, most recently active first: with a shared store, the store's index
   * (rooms of every node, active within LIVE_WINDOW_MS), else the rooms this node holds.
   */
  async live(limit = 100): Promise<LiveRoom[]> {
    const storage = this.#opts.storage;
    if (storage.listLive) {
      const since = Date.now() - LIVE_WINDOW_MS;
      const entries = (await storage.listLive(limit)) as unknown as (LiveRoom & { activeAt?: number })[];
      return entries
        .filter((entry) => (entry.activeAt ?? 0) >= since)
        .map(({ activeAt: _activeAt, ...entry }) => entry);
    }
    return [...this.#rooms.values()]
      .filter((room) => room.state.public && room.state.result === null)
      .sort((a, b) => b.lastActive - a.lastActive)
      .slice(0, limit)
      .map((room) => liveEntryOf(room.state));
  }

  /** A shared store: the room's entry in the live list across nodes (removed once it has a result). */
  #indexLive(state: RoomState): Promise<void> {
    const index = this.#opts.storage.indexLive;
    if (!index) return Promise.resolve();
    const at = Date.now();
    const entry = state.result === null ? { ...liveEntryOf(state), activeAt: at } : null;
    return index
      .call(this.#opts.storage, state.roomId, state.version, entry as StoredData | null, at)
      .catch((error: unknown) =>
        this.#opts.log.warn({ err: error, roomId: state.roomId }, 'live list not updated'),
      );
  }

  /**
   * Loads the rooms whose clock runs (created in the last week, at most 10,000) that this node
   * does not hold: their flag timers end their games on time though nobody comes back (after a
   * restart; with several nodes, a game whose node died). A room that fails to load is left for
   * the next call. Resolves with how many were loaded and how many failed.
   */
  async resumeClocks(now: number): Promise<{ loaded: number; failed: number }> {
    const ids = await this.#opts.storage.timedRoomsInPlay(now - RESUMED_CLOCKS_MS, RESUMED_CLOCKS_MAX);
    let loaded = 0;
    let failed = 0;
    for (const id of ids) {
      if (this.#closing) break;
      if (this.#rooms.has(id)) continue;
      try {
        if (await this.get(id)) loaded++;
      } catch {
        failed++;
      }
    }
    return { loaded, failed };
  }

  /**
   * `resumeClocks` now, and again `everyMs` later while a game failed to load (a start during a
   * store outage). A store of this node's alone (`shared` false) is then done with: no other node
   * holds its games. A shared store is looked at again when a node leaves (`#watchNodes`: its
   * flags must still fall, late but dated on time) and, as a safety net (a node gone unnoticed),
   * every CLOCK_WATCH_SLOWDOWN × `everyMs`.
   */
  watchClocks(everyMs: number, shared: boolean): void {
    let running = false;
    const watch = async () => {
      if (running || this.#closing) return;
      running = true;
      clearTimeout(this.#clockWatch);
      let failed = true;
      try {
        const result = await this.resumeClocks(Date.now());
        failed = result.failed > 0;
        if (result.loaded > 0)
          this.#opts.log.info({ rooms: result.loaded }, 'timed games in play loaded: their clocks run');
        if (failed)
          this.#opts.log.warn({ rooms: result.failed }, 'timed games in play not loaded: tried again later');
      } catch (error) {
        this.#opts.log.warn({ err: error }, 'timed games in play not listed: tried again later');
      } finally {
        running = false;
      }
      if (this.#closing || (!failed && !shared)) return;
      this.#clockWatch = setTimeout(() => void watch(), failed ? everyMs : everyMs * CLOCK_WATCH_SLOWDOWN);
      this.#clockWatch.unref();
    };
    this.#watchClocksNow = () => void watch();
    void watch();
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
        const room = this.#wrap(restoreRoomState(record, { ...this.#env, at: this.#now() }));
        this.#rooms.set(roomId, room);
        this.#archiveOld(room.state, record);
        // Its clock and the computer's turn go on after a restart (or on another node of a shared store).
        room.resume();
        room.log.debug({ version: record.version, changes: record.changes.length }, 'room loaded');
        return room;
      } finally {
        this.#loading.delete(roomId);
      }
    })();
    this.#loading.set(roomId, load);
    return load;
  }

  /**
   * A finished room loaded from the store: its game is archived unless it already is (a room
   * finished before the archive existed; since, a result is stored with its archived game).
   * Tried again at its next load if the store fails now.
   */
  #archiveOld(state: RoomState, record: RoomRecord): void {
    const game = archivedGameOf(state, finishedAtOf(record));
    if (!game) return;
    this.#opts.storage
      .archiveGame(game)
      .catch((error: unknown) =>
        this.#opts.log.warn({ err: error, roomId: state.roomId }, 'game not archived'),
      );
  }

  /** Changes another node stored for a room: applied to it if it is in memory here (see Room.feed). */
  feed(stored: Stored): void {
    this.#rooms.get(stored.roomId)?.feed(stored);
  }

  /** Redis is back after an outage: each room with a socket here shows them what they missed (Room.resync). */
  resync(): void {
    for (const room of this.#rooms.values()) {
      // Spread out: every room at once would be a burst of store reads for the breaker to judge.
      if (room.occupied) setTimeout(() => void room.resync(), Math.random() * RESYNC_SPREAD_MS).unref();
    }
  }

  /** Whether this node holds the room in memory and its game has no result yet. */
  inPlay(roomId: string): boolean {
    return this.#rooms.get(roomId)?.state.result === null;
  }

  /** Runs a command in the room's turn; NOT_FOUND for an unknown room. `send`: see Room.dispatch. */
  async dispatch(
    roomId: string,
    command: Command,
    settle?: Settle,
    prepare?: Prepare,
    send?: Send,
  ): Promise<Reduction> {
    if (this.#closing) {
      if (command.type !== 'disconnect') {
        return { ok: false, error: roomError('UNAVAILABLE', 'the server is restarting; try again') };
      }
      // A stop is not a leave: on one node the rooms load again with nobody here until each
      // player re-joins, so no abandonment countdown starts. Several nodes must still learn
      // that this node's sockets are gone (their players re-join on another node).
      if (!this.#env.sharedPresence) return this.#unrecorded(roomId, settle);
    }
    let room: Room | null;
    try {
      room = await this.get(roomId);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      return { ok: false, error: roomError('UNAVAILABLE', 'the game could not be loaded; try again') };
    }
    if (!room) {
      const result: Reduction = { ok: false, error: roomError('NOT_FOUND', noRoom(roomId)) };
      return result;
    }
    return room.dispatch(command, settle, prepare, send);
  }

  /** A disconnect during a stop on one node: answered as a no-op, nothing stored. */
  #unrecorded(roomId: string, settle: Settle | undefined): Promise<Reduction> {
    const room = this.#rooms.get(roomId);
    if (!room) return Promise.resolve({ ok: false, error: roomError('NOT_FOUND', `no room ${roomId} here`) });
    const { state } = room;
    const result: Reduction = { ok: true, value: { state, events: [], changes: [], version: state.version } };
    settle?.(result, room);
    return Promise.resolve(result);
  }

  /**
   * Drops empty rooms that have been idle for `idleMs` (they reload from storage on demand); not a
   * room whose clock runs, whose flag timer must end its game on time.
   */
  sweep(now: number): number {
    let evicted = 0;
    for (const [id, room] of this.#rooms) {
      const idle = room.idle && !room.occupied && now - room.lastActive >= this.#opts.idleMs;
      if (idle && room.settled && !room.clockRunning) {
        room.stop();
        this.#rooms.delete(id);
        evicted++;
      }
    }
    return evicted;
  }

  /**
   * Refuses new commands and waits for the queued ones. Called again, it waits for those queued
   * since (with several nodes, the disconnects of the sockets closed meanwhile).
   */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#sweeper);
    clearTimeout(this.#clockWatch);
    clearInterval(this.#recounter);
    await Promise.allSettled([...this.#loading.values()]);
    for (const room of this.#rooms.values()) room.stop();
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
        ...(this.#opts.deliverChat ? { deliverChat: this.#opts.deliverChat } : {}),
        now: this.#now,
        abandonGraceMs: this.#graceMs,
        bots: this.#opts.bots,
        countRemote: this.#opts.countRemote,
        onConflict: this.#opts.onConflict,
        ...(this.#opts.storage.indexLive
          ? { onStored: (after: RoomState) => void this.#indexLive(after) }
          : {}),
        onGone: (gone: Room) => {
          if (this.#rooms.get(gone.id) === gone) this.#rooms.delete(gone.id);
        },
      },
      Date.now(),
    );
  }
}

/** The rematch room and, for each player's sockets in the old room, their seat there: sides swapped. */
function startedIn(
  old: Room,
  started: { room: Room; tokens: Partial<Record<Side, string>> } | undefined,
): Pick<Rematched, 'started'> {
  if (!started) return {};
  const seats: SeatAssignment[] = [];
  for (const side of SIDES) {
    const sockets = old.state.seats[side].sockets;
    const seatToken = started.tokens[otherSide(side)];
    if (sockets.length > 0 && seatToken !== undefined) {
      seats.push({ sockets, seat: { roomId: started.room.id, side: otherSide(side), seatToken } });
    }
  }
  return { started: { roomId: started.room.id, seats } };
}

/** What `GET /api/live` lists of a room. */
function liveEntryOf(state: RoomState): LiveRoom {
  const snapshot = snapshotOf(state);
  return {
    roomId: snapshot.roomId,
    variant: snapshot.variant,
    seats: snapshot.seats,
    moves: snapshot.moves.length,
    spectators: snapshot.spectators,
    timeControl: snapshot.timeControl,
    createdAt: state.createdAt,
  };
}

/** How far back a starting server looks for timed games in play, and how many it loads. */
const RESUMED_CLOCKS_MS = 7 * 86_400_000;
const RESUMED_CLOCKS_MAX = 10_000;
/** A shared store's timed games are looked at this many watch periods apart when all loaded. */
const CLOCK_WATCH_SLOWDOWN = 20;
/** How often the count of nodes is looked at: a crashed node's players show as gone about as soon. */
const PRESENCE_RECOUNT_MS = 10_000;
/** The recounts after a node left are spread over this long, not fired at one instant. */
const RECOUNT_SPREAD_MS = 2000;

/**
 * The token hashes that held `side`'s seat of the old room — its own and, were it a rematch, those
 * its holder had before — kept on its holder's seat in the rematch.
 */
function formerTokens(of: RoomState, side: Side): { formerTokenHashes?: string[] } {
  const hash = of.seats[side].tokenHash;
  if (hash === null) return {};
  const seat = [of.init.creator, of.init.opponent].find(
    (held) => held?.side === side && held.tokenHash === hash,
  );
  const before = seat?.formerTokenHashes ?? [];
  return { formerTokenHashes: [hash, ...before].slice(0, MAX_FORMER_TOKENS) };
}
