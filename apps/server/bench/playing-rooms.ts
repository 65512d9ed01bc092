/**
 * Rooms at play through restarts, for the restart bench and the rolling-restart test: each room
 * has two players and a spectator on Socket.IO clients that reconnect by themselves with jittered
 * backoff (as the web client does) and re-join on every connect with their seat tokens and the
 * last version seen. The side to move plays random legal moves at the ply it knows; every
 * acknowledged move is kept, so that afterwards the rooms can be checked against what was acked.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateRoomReply, Snapshot } from '@bagh/protocol';
import { createGame, type Game, legalMoves, makeMove, playMoveText } from '@bagh/rules';
import { io as connect, type Socket } from 'socket.io-client';

export interface PlayingClient {
  readonly socket: Socket;
  readonly seatToken: string | undefined;
  /** performance.now() of the last successful join (NaN before the first). */
  joinedAt: number;
  /** performance.now() of the last disconnect (NaN before the first). */
  leftAt: number;
}

export interface PlayingRoom {
  readonly roomId: string;
  readonly players: { readonly goat: PlayingClient; readonly tiger: PlayingClient };
  readonly spectator: PlayingClient;
  /** The moves as last seen (a join's snapshot or the spectator's events). */
  moves: string[];
  game: Game;
  /** Acknowledged moves by ply. */
  readonly acked: Map<number, string>;
  /** Every move sent, by ply (a resend at the same ply is the same entry). */
  readonly sent: Map<number, Set<string>>;
  inFlight: boolean;
}

export interface Reconnection {
  /** socket.io-client's reconnectionDelay / reconnectionDelayMax (ms); randomization 0.5. */
  readonly delayMs: number;
  readonly maxDelayMs: number;
}

/** The web client's backoff (apps/web connection). */
export const WEB_RECONNECTION: Reconnection = { delayMs: 500, maxDelayMs: 5000 };

export interface Verdict {
  readonly acked: number;
  /** Acknowledged moves their room no longer has (must be 0). */
  readonly lost: number;
  /** Moves a room has that no client sent at that ply (must be 0: a move played twice shows here). */
  readonly unsent: number;
}

export class PlayingRooms {
  readonly rooms: PlayingRoom[] = [];
  #running = true;
  readonly #reconnection: Reconnection;

  private constructor(reconnection: Reconnection) {
    this.#reconnection = reconnection;
  }

  /** Opens `count` rooms on `url` (50 at a time), each playing about `ratePerRoom` moves a second. */
  static async open(
    url: string,
    count: number,
    ratePerRoom: number,
    reconnection: Reconnection = WEB_RECONNECTION,
  ): Promise<PlayingRooms> {
    const playing = new PlayingRooms(reconnection);
    for (let i = 0; i < count; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, () => playing.#openRoom(url)),
      );
      playing.rooms.push(...batch);
    }
    for (const room of playing.rooms) playing.#pace(room, ratePerRoom);
    return playing;
  }

  get clients(): PlayingClient[] {
    return this.rooms.flatMap((room) => [room.players.goat, room.players.tiger, room.spectator]);
  }

  /**
   * Resolves true once every client is connected and in its room again (joined after its last
   * disconnect, and after `since`, a performance.now()), false after `limitMs`.
   */
  async allBack(limitMs: number, since = Number.NEGATIVE_INFINITY): Promise<boolean> {
    const deadline = performance.now() + limitMs;
    const back = () =>
      this.clients.every((c) => c.socket.connected && c.joinedAt >= since && !(c.leftAt > c.joinedAt));
    while (!back() && performance.now() < deadline) await sleep(50);
    return back();
  }

  /** No more moves; waits for the ones in flight to be answered. */
  async stopPlaying(): Promise<void> {
    this.#running = false;
    const deadline = performance.now() + 15_000;
    while (this.rooms.some((room) => room.inFlight) && performance.now() < deadline) await sleep(20);
  }

  /** Checks every room on `url` against what its clients sent and had acknowledged. */
  async verify(url: string): Promise<Verdict> {
    let acked = 0;
    let lost = 0;
    let unsent = 0;
    for (const room of this.rooms) {
      const response = await fetch(`${url}/api/rooms/${room.roomId}`);
      if (response.status !== 200) throw new Error(`room ${room.roomId}: ${response.status}`);
      const snapshot = (await response.json()) as Snapshot;
      for (const [ply, move] of room.acked) {
        acked++;
        if (snapshot.moves[ply] !== move) lost++;
      }
      snapshot.moves.forEach((move, ply) => {
        if (!room.sent.get(ply)?.has(move)) unsent++;
      });
    }
    return { acked, lost, unsent };
  }

  close(): void {
    this.#running = false;
    for (const client of this.clients) client.socket.disconnect();
  }

  #client(url: string, seatToken: string | undefined): PlayingClient {
    const socket = connect(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnectionDelay: this.#reconnection.delayMs,
      reconnectionDelayMax: this.#reconnection.maxDelayMs,
      randomizationFactor: 0.5,
    });
    const client = { socket, seatToken, joinedAt: Number.NaN, leftAt: Number.NaN };
    socket.on('disconnect', () => {
      client.leftAt = performance.now();
    });
    return client;
  }

  /** A room on `url` with both seats taken and a spectator, each client re-joining on every connect. */
  async #openRoom(url: string): Promise<PlayingRoom> {
    const response = await fetch(`${url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variant: 'bagh-chal', side: 'goat' }),
    });
    if (response.status !== 201) throw new Error(`create room: ${response.status} ${await response.text()}`);
    const created = (await response.json()) as CreateRoomReply;
    // The tiger's seat is claimed once, by a socket of its own; its token re-joins from then on.
    const claimer = connect(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    const claimed = (await claimer.timeout(10_000).emitWithAck('seat:claim', {
      roomId: created.roomId,
      side: 'tiger',
    })) as { ok: boolean; seatToken?: string };
    claimer.disconnect();
    if (!claimed.ok || !claimed.seatToken) throw new Error(`claim: ${JSON.stringify(claimed)}`);
    const room: PlayingRoom = {
      roomId: created.roomId,
      players: { goat: this.#client(url, created.seatToken), tiger: this.#client(url, claimed.seatToken) },
      spectator: this.#client(url, undefined),
      moves: [],
      game: newGame(),
      acked: new Map(),
      sent: new Map(),
      inFlight: false,
    };
    let version = -1;
    const seen = (snapshot: Snapshot) => {
      if (snapshot.version <= version) return;
      version = snapshot.version;
      follow(room, snapshot.moves);
    };
    const clients = [room.players.goat, room.players.tiger, room.spectator];
    for (const client of clients) joinOnConnect(client, room.roomId, () => version, seen);
    room.spectator.socket.on('room:event', (event: { roomId: string; snapshot: Snapshot }) => {
      if (event.roomId === room.roomId) seen(event.snapshot);
    });
    while (clients.some((c) => Number.isNaN(c.joinedAt))) await sleep(20);
    return room;
  }

  /** The side to move plays a random legal move about `ratePerRoom` times a second while connected. */
  #pace(room: PlayingRoom, ratePerRoom: number): void {
    const tick = () => {
      if (!this.#running) return;
      setTimeout(tick, (1000 / ratePerRoom) * (0.5 + Math.random()));
      const moves = legalMoves(room.game);
      if (room.inFlight || moves.length === 0) return;
      const player = room.players[room.game.position.toMove];
      if (!player.socket.connected) return;
      const ply = room.moves.length;
      const move = makeMove(moves[Math.floor(Math.random() * moves.length)]!);
      const sent = room.sent.get(ply) ?? new Set();
      room.sent.set(ply, sent.add(move));
      room.inFlight = true;
      player.socket
        .timeout(10_000)
        .emit('move', { roomId: room.roomId, move, ply }, (timeout: unknown, reply: { ok: boolean }) => {
          room.inFlight = false;
          if (!timeout && reply.ok) room.acked.set(ply, move);
        });
    };
    setTimeout(tick, Math.random() * (1000 / ratePerRoom));
  }
}

function newGame(): Game {
  const created = createGame('bagh-chal');
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

/** Follows `moves`: played on from the room's game when they extend it, else replayed from the start. */
function follow(room: PlayingRoom, moves: readonly string[]): void {
  const extending = moves.length >= room.moves.length && room.moves.every((m, i) => moves[i] === m);
  let game = extending ? room.game : newGame();
  for (const move of moves.slice(extending ? room.moves.length : 0)) {
    const played = playMoveText(game, move);
    if (!played.ok) throw new Error(`playing rooms: ${played.error.message}`);
    game = played.value;
  }
  room.game = game;
  room.moves = [...moves];
}

/** Joins on every connect (the first and each reconnect), with the token and the last version seen. */
function joinOnConnect(
  client: PlayingClient,
  roomId: string,
  version: () => number,
  onSnapshot: (snapshot: Snapshot) => void,
): void {
  const join = () => {
    const since = version();
    const request = {
      roomId,
      ...(client.seatToken ? { seatToken: client.seatToken } : {}),
      ...(since >= 0 ? { since } : {}),
    };
    client.socket.timeout(10_000).emit('room:join', request, (timeout: unknown, reply: JoinAck) => {
      if (timeout || !reply.ok || !reply.snapshot) {
        // Refused while the server stops or its store recovers: try again while connected.
        if (client.socket.connected) setTimeout(join, 500);
        return;
      }
      client.joinedAt = performance.now();
      onSnapshot(reply.snapshot);
    });
  };
  client.socket.on('connect', join);
}

type JoinAck = { ok: boolean; snapshot?: Snapshot };
