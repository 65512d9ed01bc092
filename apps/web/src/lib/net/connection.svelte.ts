/**
 * GameConnection owns the room's socket. It exposes read-only reactive getters and intent
 * methods (join, claim, move). The server snapshot is replaced wholesale, never merged, and
 * events are applied strictly in version order: a version ≤ the current one is dropped, a
 * gap triggers a re-join with `since`, and every (re)connect re-joins.
 *
 * It never gives up: after any loss (a server stopped or gone, a network drop, a sleeping
 * laptop) it reconnects with a jittered backoff, at once when the browser comes back online or
 * the page is shown again, and re-joins with the seat token and `since`. A move made while the
 * connection is down waits and is sent once the page is back (at the same ply, unless the
 * re-join shows it was played or the game moved on): never lost silently, never played twice.
 * A move the server cannot store (UNAVAILABLE: a store outage) waits the same way, tried again
 * with a capped backoff for as long as the outage lasts.
 */
// Types only: the page never loads zod (the server validates; the client trusts its replies).
import type {
  AckOf,
  ChatChannel,
  ChatMessage,
  ClientEvent,
  ClientToServerEvents,
  ErrorInfo,
  RequestOf,
  Role,
  RoomEvent,
  ServerEvent,
  ServerToClientEvents,
  Snapshot,
} from '@bagh/protocol';
import { makeMove, parseMove, type Side } from '@bagh/rules';
import { io, type Socket } from 'socket.io-client';
import { m } from '../../paraglide/messages.js';
import { localTokens, type TokenStore } from './seats.js';

/**
 * What the connection is doing: `connecting` (the first time), `online` (joined, in sync),
 * `back-online` (joined again after a loss, for a few seconds), `reconnecting` (lost, trying),
 * `offline` (the browser says it has no network; it tries again once it has).
 */
export type ConnectionStatus = 'connecting' | 'online' | 'back-online' | 'reconnecting' | 'offline';
type GameSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
/** The socket's own events the connection follows. */
type Lifecycle = 'connect' | 'disconnect' | 'connect_error';
type Listener<E extends ServerEvent | Lifecycle> = E extends ServerEvent
  ? ServerToClientEvents[E]
  : () => void;
/** The commands of a seated player that need nothing back but success: resign, draw offers, chat… */
type GameCommand = Exclude<ClientEvent, 'room:join' | 'seat:claim' | 'move' | 'room:leave'>;

/**
 * Reconnection backoff: the first try after 0.5–1.5 s, then doubling up to 2.5–7.5 s (±50 %
 * jitter), so that the pages of a restarted server do not all come back in the same instant.
 */
export const RECONNECT = { delayMs: 1000, maxDelayMs: 5000, jitter: 0.5 } as const;
/** How long "Back online" shows before "Online". */
export const BACK_ONLINE_MS = 3000;
/** A page hidden at least this long re-joins when shown again (it may have slept). */
const RESYNC_AFTER_HIDDEN_MS = 5000;

/** A delay drawn from RECONNECT's first step: for the reconnects Socket.IO does not do itself. */
const jitteredDelay = (): number =>
  RECONNECT.delayMs * (1 - RECONNECT.jitter + 2 * RECONNECT.jitter * Math.random());

/** Refusals of a join that may pass a moment later: it is tried again by itself. */
const RETRYABLE: ReadonlySet<ClientError['code']> = new Set<ClientError['code']>([
  'UNAVAILABLE',
  'INTERNAL',
  'RATE_LIMITED',
  'STALE',
  'OFFLINE',
]);
/** A join failure that passes by itself: the page tries again (OFFLINE: the server cannot be reached). */
export const retrying = (error: ClientError): boolean => RETRYABLE.has(error.code);

/** The move this page made and the server has not confirmed yet. */
interface OutgoingMove {
  readonly text: string;
  /** The number of moves played when it was made: a resend carries the same. */
  readonly ply: number;
  /** Emitted and awaiting its ack; false while it waits for the connection. */
  readonly sent: boolean;
  /**
   * It had to wait (the connection, a lost ack, the store): shown as waiting until the server
   * settles it, its resends included, so that the board and status do not flicker on each try.
   */
  readonly waited: boolean;
  /** How many times the server answered UNAVAILABLE (it could not store it): the backoff's step (retryDelay). */
  readonly unavailable: number;
}

/**
 * The wait before trying again after the `attempt`-th refusal in a row of something that passes
 * (a move the store could not keep, a re-join refused by the same outage): RECONNECT's delay
 * doubling up to its cap (1, 2, 4, 5, 5… s), less up to half (jitter), never past the cap.
 */
export function retryDelay(attempt: number): number {
  const step = Math.min(RECONNECT.maxDelayMs, RECONNECT.delayMs * 2 ** Math.max(0, attempt - 1));
  return step * (1 - RECONNECT.jitter * Math.random());
}
/** Events kept while a join is in flight; past that, the join after it fetches what is missing. */
const MAX_HELD_EVENTS = 50;

export interface ConnectionOptions {
  /** Server origin; the page's own by default. */
  url?: string;
  tokens?: TokenStore;
  /** Injected in tests. */
  socket?: GameSocket;
  ackTimeoutMs?: number;
}

/** A client-side error: a protocol code plus the server's message. */
export type ClientError = ErrorInfo | { code: 'TIMEOUT' | 'OFFLINE' | 'NOT_SENT'; message: string };

export class GameConnection {
  readonly roomId: string;
  #socket: GameSocket;
  #tokens: TokenStore;
  /** The seat claim not answered yet, with its key: sent again after each join until it is (see claim). */
  #claiming: { side: Side; key: string } | null = null;
  #ackTimeoutMs: number;

  #snapshot = $state.raw<Snapshot | null>(null);
  #role = $state<Role | null>(null);
  #status = $state<ConnectionStatus>('connecting');
  #error = $state.raw<ClientError | null>(null);
  #outbox = $state.raw<OutgoingMove | null>(null);
  #chat = $state.raw<ChatMessage[]>([]);
  /** The room a rematch seated this browser in (from `seat:assigned`). */
  #rematchRoom = $state<string | null>(null);
  /** The opponent declined this page's draw offer (a `draw` event: no snapshot says so). */
  #drawDeclined = $state(false);
  /** Local clock minus server clock (ms), from the last snapshot received. */
  #offset = $state(0);
  #joining = false;
  /** Events past a gap that came while a join was in flight: its reply may be older than they are. */
  #heldDuringJoin: RoomEvent[] = [];
  #joinSeq = 0;
  /** The connection was lost since the last join: the next join is a return ("Back online"). */
  #lost = false;
  #closed = false;
  /** Set while this page restarts its own socket (its disconnect needs no reconnect scheduled). */
  #restarting = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #backOnlineTimer: ReturnType<typeof setTimeout> | undefined;
  #hiddenSince: number | null = null;
  #joinFailure = $state.raw<ClientError | null>(null);
  /** Re-joins refused in a row by something that passes (a store outage, a rate limit): their backoff's step. */
  #refusedJoins = 0;
  #unbind: (() => void)[] = [];
  #listeners = new Set<(event: RoomEvent) => void>();

  constructor(roomId: string, options: ConnectionOptions = {}) {
    this.roomId = roomId;
    this.#tokens = options.tokens ?? localTokens;
    this.#ackTimeoutMs = options.ackTimeoutMs ?? 8000;
    this.#socket =
      options.socket ??
      io(options.url ?? '', {
        // The load balancer sends every socket of a room to one node (deploy/nginx.conf); its own
        // manager, so that the query is this room's.
        query: { room: roomId },
        forceNew: true,
        transports: ['websocket', 'polling'],
        // Where WebSockets are blocked (some proxies), long-polling: without this, the first
        // transport's failure ends the attempt.
        tryAllTransports: true,
        autoConnect: false,
        reconnection: true,
        reconnectionAttempts: Number.POSITIVE_INFINITY,
        reconnectionDelay: RECONNECT.delayMs,
        reconnectionDelayMax: RECONNECT.maxDelayMs,
        randomizationFactor: RECONNECT.jitter,
      });
    this.#on('connect', () => this.join());
    this.#on('disconnect', () => this.#onLost());
    this.#on('connect_error', () => {
      this.#joinFailure = { code: 'OFFLINE', message: m.net_unreachable() };
      if (this.#status !== 'connecting') this.#status = this.#downStatus();
      if (!this.#socket.active) this.#retrySoon(); // refused outright: Socket.IO will not retry
    });
    this.#on('room:event', (event) => this.#receive(event));
    this.#on('chat:message', (message) => {
      if (message.roomId === this.roomId) this.#chat = [...this.#chat, message].slice(-200);
    });
    this.#on('seat:assigned', (assigned) => {
      this.#tokens.set(assigned.roomId, assigned.seatToken);
      this.#rematchRoom = assigned.roomId;
    });
    // The network changed: the old connection may be dead without knowing it; start afresh.
    this.#listen(globalThis.window, 'online', () => this.#reconnectNow());
    this.#listen(globalThis.window, 'offline', () => {
      this.#lost = true;
      this.#status = 'offline';
    });
    this.#listen(globalThis.document, 'visibilitychange', () => this.#onVisibility());
  }

  /** The chat this browser may read, oldest first. */
  get chat(): readonly ChatMessage[] {
    return this.#chat;
  }
  /** Set once a rematch gave this browser a seat in a new room. */
  get rematchRoom(): string | null {
    return this.#rematchRoom;
  }
  /** The server's time now, estimated from the last snapshot (for clocks and countdowns). */
  serverNow(): number {
    return Date.now() - this.#offset;
  }

  /** The latest server snapshot (replaced, never merged). */
  get snapshot(): Snapshot | null {
    return this.#snapshot;
  }
  /** What the server says this browser is in the room; null before the first join. */
  get role(): Role | null {
    return this.#role;
  }
  get status(): ConnectionStatus {
    return this.#status;
  }
  /** Joined and in sync: what the page shows is live (presence included) and intents go out. */
  get connected(): boolean {
    return this.#status === 'online' || this.#status === 'back-online';
  }
  /** Why the last join failed (OFFLINE: the server could not be reached), until one succeeds. */
  get joinError(): ClientError | null {
    return this.#joinFailure;
  }
  /** The last failed intent, until the next intent or dismissError(). */
  get lastError(): ClientError | null {
    return this.#error;
  }
  /** A move is on its way: awaiting its ack, or the connection to be sent. */
  get pending(): boolean {
    return this.#outbox !== null;
  }
  /**
   * The move waiting for the connection or the store to come back, if any (sent once they are),
   * until the server settles it.
   */
  get waitingMove(): string | null {
    const outgoing = this.#outbox;
    return outgoing && (!outgoing.sent || outgoing.waited) ? outgoing.text : null;
  }
  /** The opponent declined this player's draw offer; true until they move, offer again or the game ends. */
  get drawDeclined(): boolean {
    return this.#drawDeclined;
  }
  get version(): number {
    return this.#snapshot?.version ?? -1;
  }

  /** Opens the socket; the join follows on connect. */
  connect(): void {
    this.#status = 'connecting';
    this.#socket.connect();
  }

  /** Closes the socket and unbinds every handler. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#backOnlineTimer);
    for (const off of this.#unbind) off();
    this.#unbind = [];
    this.#listeners.clear();
    this.#socket.disconnect();
  }

  /** Subscribes to applied events (in version order); returns the unsubscriber. */
  onEvent(listener: (event: RoomEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  dismissError(): void {
    this.#error = null;
  }

  /** Joins (or re-joins) the room, with the seat token and the last version seen. */
  join(): void {
    if (this.#joining) return;
    this.#joining = true;
    const seq = ++this.#joinSeq;
    const seatToken = this.#tokens.get(this.roomId);
    const since = this.#snapshot?.version;
    const request = {
      roomId: this.roomId,
      ...(seatToken ? { seatToken } : {}),
      ...(since !== undefined ? { since } : {}),
    };
    this.#socket.timeout(this.#ackTimeoutMs).emit('room:join', request, (timeout, reply) => {
      if (seq !== this.#joinSeq) return; // superseded by a later join, or the connection was lost
      this.#joining = false;
      // No answer on an open connection: it may be dead (a laptop that slept); start afresh.
      if (timeout) return this.#reconnectNow();
      if (!reply.ok) {
        if (retrying(reply.error)) this.#rejoinSoon(retryDelay(++this.#refusedJoins));
        this.#joinFailure = reply.error;
        // A move waiting out a store outage already says the server cannot take it yet: an
        // error beside it (the re-join refused by the same outage) would read as the move lost.
        if (reply.error.code === 'UNAVAILABLE' && this.waitingMove !== null) return;
        return this.#fail(reply.error);
      }
      this.#role = reply.role;
      this.#chat = reply.chat ?? [];
      this.#replace(reply.snapshot);
      const held = this.#heldDuringJoin.sort((a, b) => a.version - b.version);
      this.#heldDuringJoin = [];
      for (const event of [...(reply.events ?? []), ...held]) this.#receive(event);
      this.#joined();
    });
  }

  /**
   * Takes a free seat. The claim (its key) is kept until the server answers it: a claim whose
   * answer was lost or late (it may have been stored) is sent again after the next join, and the
   * server gives the same key the same token, and the seat if an earlier try took it.
   */
  claim(side: Side): void {
    if (!this.connected) {
      this.#fail({ code: 'OFFLINE', message: m.net_offline_retry() });
      return;
    }
    this.#error = null;
    if (this.#claiming?.side !== side) this.#claiming = { side, key: randomKey() };
    this.#sendClaim(this.#claiming);
  }

  #sendClaim(claim: { side: Side; key: string }): void {
    const request = { roomId: this.roomId, side: claim.side, claimKey: claim.key };
    this.#socket.timeout(this.#ackTimeoutMs).emit('seat:claim', request, (timeout, reply) => {
      if (this.#claiming !== claim) return; // answered meanwhile
      // No answer (the connection dropped, or the server is slow): the join after it tries again.
      if (timeout) return this.connected ? this.join() : undefined;
      if (!reply.ok && reply.error.code === 'UNAVAILABLE') return this.#rejoinSoon();
      this.#claiming = null;
      if (!reply.ok) return this.#fail(reply.error);
      this.#tokens.set(this.roomId, reply.seatToken);
      this.#role = claim.side;
      this.#replace(reply.snapshot);
    });
  }

  /**
   * Sends a move in RULES.md move text; the server judges it. While the connection is down the
   * move waits and goes out once the page has re-joined.
   */
  move(text: string): void {
    const snapshot = this.#snapshot;
    if (!snapshot) return;
    if (this.#outbox) {
      this.#fail({ code: 'NOT_SENT', message: m.net_move_on_its_way() });
      return;
    }
    this.#error = null;
    const outgoing = {
      text,
      ply: snapshot.moves.length,
      sent: false,
      waited: !this.connected,
      unavailable: 0,
    };
    this.#outbox = outgoing;
    if (this.connected) this.#send(outgoing);
  }

  resign(): void {
    this.#command('resign', { roomId: this.roomId });
  }
  abort(): void {
    this.#command('abort', { roomId: this.roomId });
  }
  offerDraw(): void {
    this.#command('draw:offer', { roomId: this.roomId });
  }
  acceptDraw(): void {
    this.#command('draw:accept', { roomId: this.roomId });
  }
  declineDraw(): void {
    this.#command('draw:decline', { roomId: this.roomId });
  }
  offerRematch(): void {
    this.#command('rematch:offer', { roomId: this.roomId });
  }
  acceptRematch(): void {
    this.#command('rematch:accept', { roomId: this.roomId });
  }
  claimAbandoned(outcome: 'win' | 'draw'): void {
    this.#command('abandon:claim', { roomId: this.roomId, outcome });
  }
  /** Resolves true once the server took the message. */
  sendChat(channel: ChatChannel, text: string): Promise<boolean> {
    return this.#command('chat:send', { roomId: this.roomId, channel, text });
  }

  /** A game command: acked, its failure shown as `lastError`; resolves true if the server took it. */
  #command<E extends GameCommand>(event: E, payload: RequestOf<E>): Promise<boolean> {
    return new Promise((done) => {
      if (!this.connected) {
        this.#fail({ code: 'OFFLINE', message: m.net_offline() });
        return done(false);
      }
      this.#error = null;
      // Socket.IO's emit types stay unresolved for a generic event: this one call goes through the
      // socket's untyped face, and the registry's types are this method's signature.
      const wire: Socket = this.#socket;
      wire.timeout(this.#ackTimeoutMs).emit(event, payload, (timeout: Error | null, reply: AckOf<E>) => {
        done(!timeout && reply.ok);
        // No answer: it may have been done all the same; a re-join shows (and clears this), at
        // once while the connection is up (a slow answer), as for a move.
        if (timeout) {
          this.#fail({ code: 'TIMEOUT', message: m.net_timeout() });
          if (this.connected) this.join();
        } else if (!reply.ok) this.#fail(refusalOf(event, reply.error));
      });
    });
  }

  /** Emits the move; each attempt is a new object, so only the latest one's ack counts. */
  #send(move: OutgoingMove): void {
    const outgoing = { ...move, sent: true };
    this.#outbox = outgoing;
    const request = { roomId: this.roomId, move: outgoing.text, ply: outgoing.ply };
    this.#socket.timeout(this.#ackTimeoutMs).emit('move', request, (timeout, reply) => {
      if (this.#outbox !== outgoing) return; // settled or sent again meanwhile
      if (timeout) {
        // Lost on the way or just slow: the next join shows whether it was played.
        this.#outbox = { ...outgoing, sent: false, waited: true };
        if (this.connected) this.join();
        return;
      }
      if (!reply.ok && reply.error.code === 'UNAVAILABLE') {
        // A store fault or a server restarting: most likely not stored, though a slow store may
        // commit it yet. The re-join after a while shows which (settleOutbox): sent again or done.
        // No limit: the outage may last minutes, and the move must not be lost meanwhile.
        const unavailable = outgoing.unavailable + 1;
        this.#outbox = { ...outgoing, sent: false, waited: true, unavailable };
        this.#rejoinSoon(retryDelay(unavailable));
        return;
      }
      this.#outbox = null;
      if (!reply.ok) this.#fail(reply.error);
    });
  }

  /**
   * After a join, the move that waited for it: already played (its ack was lost) → done; the
   * game moved on without it → refused, the board shows the server's; else sent, same ply.
   */
  #settleOutbox(snapshot: Snapshot): void {
    const outgoing = this.#outbox;
    if (!outgoing || outgoing.sent) return;
    if (snapshot.moves.length > outgoing.ply) {
      this.#outbox = null;
      if (!sameMove(snapshot.moves[outgoing.ply], outgoing.text)) {
        this.#fail({ code: 'NOT_SENT', message: m.net_move_not_played() });
      }
      return;
    }
    this.#send(outgoing);
  }

  /** Joined (again): live from now on, and the move that waited goes out. */
  #joined(): void {
    clearTimeout(this.#backOnlineTimer);
    if (this.#lost) {
      this.#lost = false;
      this.#status = 'back-online';
      this.#backOnlineTimer = setTimeout(() => {
        if (this.#status === 'back-online') this.#status = 'online';
      }, BACK_ONLINE_MS);
    } else {
      this.#status = 'online';
    }
    // What the loss caused is over: an intent refused offline or unanswered (the snapshot shows
    // whether it was done), a re-join refused meanwhile.
    const code = this.#error?.code;
    if (code === 'OFFLINE' || code === 'TIMEOUT' || this.#error === this.#joinFailure) this.#error = null;
    this.#joinFailure = null;
    this.#refusedJoins = 0;
    if (this.#snapshot) this.#settleOutbox(this.#snapshot);
    if (this.#claiming) this.#sendClaim(this.#claiming);
  }

  #onLost(): void {
    if (this.#closed) return;
    this.#joinSeq++; // a join in flight is answered by nobody now
    this.#joining = false;
    this.#heldDuringJoin = [];
    this.#lost = true;
    this.#status = this.#downStatus();
    // A move awaiting its ack will get none on this connection: the re-join settles it.
    if (this.#outbox?.sent) this.#outbox = { ...this.#outbox, sent: false, waited: true };
    // The server ended the session ("io server disconnect"): Socket.IO leaves that to the page.
    if (!this.#socket.active && !this.#restarting) this.#retrySoon();
  }

  #downStatus(): ConnectionStatus {
    return globalThis.navigator?.onLine === false ? 'offline' : 'reconnecting';
  }

  /** Reconnects after a jittered delay (many pages lost at once must not return at once). */
  #retrySoon(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      if (!this.#closed && !this.#socket.connected && !this.#socket.active) this.#socket.connect();
    }, jitteredDelay());
  }

  /**
   * Something the server could not serve now (a store fault, a stop): a re-join after a while
   * (`delayMs`, 1–3 s by default), which also settles the move that waits.
   */
  #rejoinSoon(delayMs = 2 * jitteredDelay()): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      if (!this.#closed && this.#socket.connected) this.join();
    }, delayMs);
  }

  /** Drops the socket's current attempt and connects afresh, now (the network is back). */
  #reconnectNow(): void {
    if (this.#closed) return;
    clearTimeout(this.#retryTimer);
    this.#restarting = true;
    try {
      this.#socket.disconnect();
    } finally {
      this.#restarting = false;
    }
    this.#status = this.#downStatus();
    this.#socket.connect();
  }

  /** Shown again after a while hidden: back at once if down, else re-join (it may have slept). */
  #onVisibility(): void {
    const doc = globalThis.document;
    if (doc.visibilityState === 'hidden') {
      this.#hiddenSince = Date.now();
      return;
    }
    const hiddenFor = this.#hiddenSince === null ? 0 : Date.now() - this.#hiddenSince;
    this.#hiddenSince = null;
    if (!this.#socket.connected) this.#reconnectNow();
    else if (this.connected && hiddenFor >= RESYNC_AFTER_HIDDEN_MS) this.join();
  }

  #receive(event: RoomEvent): void {
    if (event.roomId !== this.roomId) return;
    const current = this.version;
    if (event.version <= current) return;
    if (event.version !== current + 1 || !this.#snapshot) {
      // A gap: while a join is in flight, kept for after its reply; otherwise ask for what we missed.
      if (!this.#joining) this.join();
      else if (this.#heldDuringJoin.length < MAX_HELD_EVENTS) this.#heldDuringJoin.push(event);
      return;
    }
    this.#replace(event.snapshot);
    // The move's own event, before its ack (a server that stalled after broadcasting) or while it
    // waits to be sent again (a store that kept it after all): it is played, so it no longer waits.
    const outgoing = this.#outbox;
    if (outgoing && sameMove(event.snapshot.moves[outgoing.ply], outgoing.text)) this.#outbox = null;
    const role = this.#role;
    if (event.type === 'draw') {
      // A draw event that leaves no offer is a decline, by `side`.
      const seated = role === 'tiger' || role === 'goat';
      this.#drawDeclined = seated && !event.snapshot.drawOffer && event.side !== role;
    } else if (event.snapshot.result || (event.type === 'move' && event.side === role)) {
      this.#drawDeclined = false;
    }
    for (const listener of this.#listeners) listener(event);
  }

  #replace(snapshot: Snapshot): void {
    if (this.#snapshot && snapshot.version < this.#snapshot.version) return;
    this.#offset = Date.now() - snapshot.at;
    this.#snapshot = snapshot;
    // A rematch whose seat:assigned this page missed (it was away): the player's token of this
    // room holds their seat in the new one too (rematch:accept), so the rematch link seats them.
    const next = snapshot.rematch?.roomId;
    if (!next || this.#tokens.get(next)) return; // every event but a rematch's reads no storage
    const token = this.#tokens.get(this.roomId);
    if (token) this.#tokens.set(next, token);
  }

  #fail(error: ClientError): void {
    this.#error = error;
  }

  #listen(target: EventTarget | undefined, name: string, handler: () => void): void {
    if (!target) return; // not in a browser
    target.addEventListener(name, handler);
    this.#unbind.push(() => target.removeEventListener(name, handler));
  }

  /** Listens to a server event (its payload typed by the registry) or the socket's own; unbound on close. */
  #on<E extends ServerEvent | Lifecycle>(name: E, handler: Listener<E>): void;
  // The implementation takes the unions, which Socket.IO's listener types resolve (a generic event they do not).
  #on(name: ServerEvent | Lifecycle, handler: Listener<ServerEvent | Lifecycle>): void {
    this.#socket.on(name, handler);
    this.#unbind.push(() => this.#socket.off(name, handler));
  }
}

/** A command's refusal as shown: a chat message the store could not keep is not "the game could not be saved". */
function refusalOf(event: GameCommand, error: ErrorInfo): ClientError {
  return event === 'chat:send' && error.code === 'UNAVAILABLE'
    ? { code: 'NOT_SENT', message: m.chat_not_sent() }
    : error;
}

/** Two spellings of one move (the server answers with its canonical text). */
function sameMove(played: string | undefined, text: string): boolean {
  if (played === undefined) return false;
  const parsed = parseMove(text);
  return played === (parsed.ok ? makeMove(parsed.value) : text);
}

/** 128 random bits, base64url (a claim's key). */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}
