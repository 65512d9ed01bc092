/**
 * GameConnection owns the room's socket. It exposes read-only reactive getters and intent
 * methods (join, claim, move). The server snapshot is replaced wholesale, never merged, and
 * events are applied strictly in version order: a version ≤ the current one is dropped, a
 * gap triggers a re-join with `since`, and every (re)connect re-joins.
 */
import type {
  ChatChannel,
  ChatMessage,
  ClientToServerEvents,
  ErrorInfo,
  Role,
  RoomEvent,
  SeatAssigned,
  ServerToClientEvents,
  Snapshot,
} from '@bagh/protocol';
import type { Side } from '@bagh/rules';
import { io, type Socket } from 'socket.io-client';
import { localTokens, type TokenStore } from './seats.js';

export type ConnectionStatus = 'connecting' | 'online' | 'offline';
type GameSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface ConnectionOptions {
  /** Server origin; the page's own by default. */
  url?: string;
  tokens?: TokenStore;
  /** Injected in tests. */
  socket?: GameSocket;
  ackTimeoutMs?: number;
}

/** A client-side error: a protocol code plus the server's message. */
export type ClientError = ErrorInfo | { code: 'TIMEOUT' | 'OFFLINE'; message: string };

export class GameConnection {
  readonly roomId: string;
  #socket: GameSocket;
  #tokens: TokenStore;
  #ackTimeoutMs: number;

  #snapshot = $state.raw<Snapshot | null>(null);
  #role = $state<Role | null>(null);
  #status = $state<ConnectionStatus>('connecting');
  #error = $state.raw<ClientError | null>(null);
  #pending = $state(false);
  #chat = $state.raw<ChatMessage[]>([]);
  /** The room a rematch seated this browser in (from `seat:assigned`). */
  #rematchRoom = $state<string | null>(null);
  /** Local clock minus server clock (ms), from the last snapshot received. */
  #offset = $state(0);
  #joining = false;
  #joinSeq = 0;
  #unbind: (() => void)[] = [];
  #listeners = new Set<(event: RoomEvent) => void>();

  constructor(roomId: string, options: ConnectionOptions = {}) {
    this.roomId = roomId;
    this.#tokens = options.tokens ?? localTokens;
    this.#ackTimeoutMs = options.ackTimeoutMs ?? 8000;
    this.#socket =
      options.socket ??
      io(options.url ?? '', {
        transports: ['websocket', 'polling'],
        autoConnect: false,
        reconnection: true,
      });
    this.#on('connect', () => {
      this.#status = 'online';
      this.join();
    });
    this.#on('disconnect', () => {
      this.#status = 'offline';
      this.#joining = false;
    });
    this.#on('connect_error', () => {
      this.#status = 'offline';
    });
    this.#on('room:event', (event: RoomEvent) => this.#receive(event));
    this.#on('chat:message', (message: ChatMessage) => {
      if (message.roomId === this.roomId) this.#chat = [...this.#chat, message].slice(-200);
    });
    this.#on('seat:assigned', (assigned: SeatAssigned) => {
      this.#tokens.set(assigned.roomId, assigned.seatToken);
      this.#rematchRoom = assigned.roomId;
    });
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
  /** The last failed intent, until the next intent or dismissError(). */
  get lastError(): ClientError | null {
    return this.#error;
  }
  /** A move is awaiting its ack. */
  get pending(): boolean {
    return this.#pending;
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
      if (seq !== this.#joinSeq) return; // superseded by a later join
      this.#joining = false;
      if (timeout) return this.#fail({ code: 'TIMEOUT', message: 'The server did not answer.' });
      if (!reply.ok) return this.#fail(reply.error);
      this.#role = reply.role;
      this.#chat = reply.chat ?? [];
      this.#replace(reply.snapshot);
      for (const event of reply.events ?? []) this.#receive(event);
    });
  }

  /** Takes a free seat. */
  claim(side: Side): void {
    this.#error = null;
    this.#socket
      .timeout(this.#ackTimeoutMs)
      .emit('seat:claim', { roomId: this.roomId, side }, (timeout, reply) => {
        if (timeout) return this.#fail({ code: 'TIMEOUT', message: 'The server did not answer.' });
        if (!reply.ok) return this.#fail(reply.error);
        this.#tokens.set(this.roomId, reply.seatToken);
        this.#role = side;
        this.#replace(reply.snapshot);
      });
  }

  /** Sends a move in RULES.md move text; the server judges it. */
  move(text: string): void {
    const snapshot = this.#snapshot;
    if (!snapshot) return;
    if (this.#status !== 'online') {
      this.#fail({ code: 'OFFLINE', message: 'Not connected; the move was not sent.' });
      return;
    }
    this.#error = null;
    this.#pending = true;
    const request = { roomId: this.roomId, move: text, ply: snapshot.moves.length };
    this.#socket.timeout(this.#ackTimeoutMs).emit('move', request, (timeout, reply) => {
      this.#pending = false;
      if (timeout) return this.#fail({ code: 'TIMEOUT', message: 'The server did not answer.' });
      if (!reply.ok) return this.#fail(reply.error);
    });
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
  sendChat(channel: ChatChannel, text: string): void {
    this.#command('chat:send', { roomId: this.roomId, channel, text });
  }

  /** A game command: acked, its failure shown as `lastError`. */
  #command(event: string, payload: object): void {
    if (this.#status !== 'online') {
      this.#fail({ code: 'OFFLINE', message: 'Not connected.' });
      return;
    }
    this.#error = null;
    const socket = this.#socket as unknown as {
      timeout(ms: number): {
        emit(
          e: string,
          p: object,
          ack: (timeout: unknown, reply: { ok: boolean; error?: ErrorInfo }) => void,
        ): void;
      };
    };
    socket.timeout(this.#ackTimeoutMs).emit(event, payload, (timeout, reply) => {
      if (timeout) return this.#fail({ code: 'TIMEOUT', message: 'The server did not answer.' });
      if (!reply.ok && reply.error) this.#fail(reply.error);
    });
  }

  #receive(event: RoomEvent): void {
    if (event.roomId !== this.roomId) return;
    const current = this.version;
    if (event.version <= current) return;
    if (event.version !== current + 1 || !this.#snapshot) {
      // A gap: while a join is in flight its reply covers it; otherwise ask for what we missed.
      if (!this.#joining) this.join();
      return;
    }
    this.#replace(event.snapshot);
    for (const listener of this.#listeners) listener(event);
  }

  #replace(snapshot: Snapshot): void {
    if (this.#snapshot && snapshot.version < this.#snapshot.version) return;
    this.#offset = Date.now() - snapshot.at;
    this.#snapshot = snapshot;
  }

  #fail(error: ClientError): void {
    this.#error = error;
  }

  #on(name: string, handler: (...args: never[]) => void): void {
    const socket = this.#socket as unknown as {
      on(n: string, h: (...a: never[]) => void): void;
      off(n: string, h: (...a: never[]) => void): void;
    };
    socket.on(name, handler);
    this.#unbind.push(() => socket.off(name, handler));
  }
}
