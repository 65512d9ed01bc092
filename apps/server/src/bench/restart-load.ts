/**
 * The restart under load of `pnpm bench:load`: N rooms (2 players + 1 spectator each, Socket.IO
 * clients that reconnect by themselves with jittered backoff, as the web client does, and re-join
 * with their seat tokens and `since`) play random games on one server process (`node
 * dist/server.js`, SQLite); it is stopped with SIGTERM, as a deploy does, and started again on
 * the same port and data. Measured: how long after the new process listens 95% and 100% of the
 * clients are back in their rooms, and how many acknowledged moves the rooms no longer have
 * (must be 0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateRoomReply, Snapshot } from '@bagh/protocol';
import { createGame, type Game, legalMoves, makeMove, playMoveText } from '@bagh/rules';
import { io as connect, type Socket } from 'socket.io-client';
import { freePort } from '../cluster/local-redis.js';
import { type ServerProcess, startServerProcess } from '../cluster/local-server.js';
import { sleep } from './shared.js';

export interface RestartResult {
  readonly rooms: number;
  readonly clients: number;
  /** ms from the new process listening until 95% / all of the clients had re-joined (NaN: never). */
  readonly back95Ms: number;
  readonly back100Ms: number;
  /** ms the server was away: from the stop signal until the new process listened. */
  readonly downMs: number;
  readonly acked: number;
  /** Acknowledged moves missing from their room afterwards (must be 0). */
  readonly lost: number;
}

/** How long the clients may take to come back before the run gives up on the rest. */
const BACK_LIMIT_MS = 60_000;

interface Client {
  readonly socket: Socket;
  readonly seatToken: string | undefined;
  /** performance.now() of the last successful join. */
  joinedAt: number;
}

interface Room {
  readonly roomId: string;
  readonly players: { goat: Client; tiger: Client };
  readonly spectator: Client;
  moves: string[];
  game: Game;
  /** Acknowledged moves by ply. */
  readonly acked: Map<number, string>;
  inFlight: boolean;
}

const startGame = (): Game => {
  const created = createGame('bagh-chal');
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
};

/** Replays `moves` onto the room's game (from where it was when they extend it, else from the start). */
function follow(room: Room, moves: readonly string[]): void {
  const extends_ = moves.length >= room.moves.length && room.moves.every((m, i) => moves[i] === m);
  let game = extends_ ? room.game : startGame();
  for (const move of moves.slice(extends_ ? room.moves.length : 0)) {
    const played = playMoveText(game, move);
    if (!played.ok) throw new Error(`restart bench: ${played.error.message}`);
    game = played.value;
  }
  room.game = game;
  room.moves = [...moves];
}

function openClient(url: string, seatToken: string | undefined): Client {
  const socket = connect(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 500,
    reconnectionDelayMax: 5000,
    randomizationFactor: 0.5,
  });
  return { socket, seatToken, joinedAt: Number.NaN };
}

/** Joins on every connect (the first and each reconnect), with the token and the last version seen. */
function joinOnConnect(client: Client, room: Room, version: () => number, onSnapshot: (s: Snapshot) => void) {
  client.socket.on('connect', () => {
    const since = version();
    client.socket.emit(
      'room:join',
      {
        roomId: room.roomId,
        ...(client.seatToken ? { seatToken: client.seatToken } : {}),
        ...(since >= 0 ? { since } : {}),
      },
      (reply: { ok: boolean; snapshot?: Snapshot }) => {
        if (!reply.ok || !reply.snapshot) return;
        client.joinedAt = performance.now();
        onSnapshot(reply.snapshot);
      },
    );
  });
}

export async function restartUnderLoad(rooms: number, ratePerRoom: number): Promise<RestartResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bagh-restart-'));
  const port = await freePort();
  const env = {
    PORT: String(port),
    DATA_DIR: dataDir,
    WEB_DIST: join(dataDir, 'none'),
    LOG_LEVEL: 'warn',
    // One address opens every socket and room of the run.
    ROOMS_PER_ADDRESS_PER_MINUTE: '1000000',
    MAX_SOCKETS_PER_ADDRESS: '1000000',
  };
  let server: ServerProcess = await startServerProcess(env);
  const url = server.url;
  const all: Room[] = [];
  let running = true;
  try {
    for (let i = 0; i < rooms; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, rooms - i) }, () => openRoom(url, () => running)),
      );
      all.push(...batch);
    }
    const clients = all.flatMap((room) => [room.players.goat, room.players.tiger, room.spectator]);
    for (const room of all) pace(room, ratePerRoom, () => running);
    await sleep(3000);

    const stopping = performance.now();
    await server.stop('SIGTERM');
    server = await startServerProcess(env);
    const listening = performance.now();
    const deadline = listening + BACK_LIMIT_MS;
    while (clients.some((c) => !(c.joinedAt >= listening)) && performance.now() < deadline) await sleep(50);
    const backTimes = clients.map((c) => (c.joinedAt >= listening ? c.joinedAt - listening : Number.NaN));
    await sleep(3000); // play on after the restart
    running = false;
    await sleep(1000); // let the last acks land

    let lost = 0;
    let acked = 0;
    for (const room of all) {
      const response = await fetch(`${url}/api/rooms/${room.roomId}`);
      const snapshot = (await response.json()) as Snapshot;
      for (const [ply, move] of room.acked) {
        acked++;
        if (snapshot.moves[ply] !== move) lost++;
      }
    }
    const sorted = backTimes.filter((t) => !Number.isNaN(t)).sort((a, b) => a - b);
    const back = (share: number) =>
      sorted.length >= Math.ceil(share * clients.length)
        ? sorted[Math.ceil(share * clients.length) - 1]!
        : Number.NaN;
    return {
      rooms,
      clients: clients.length,
      back95Ms: back(0.95),
      back100Ms: back(1),
      downMs: listening - stopping,
      acked,
      lost,
    };
  } finally {
    running = false;
    for (const room of all)
      for (const client of [room.players.goat, room.players.tiger, room.spectator])
        client.socket.disconnect();
    await server.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A room on `url` with both seats taken and a spectator, each client re-joining on every connect. */
async function openRoom(url: string, running: () => boolean): Promise<Room> {
  const response = await fetch(`${url}/api/rooms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variant: 'bagh-chal', side: 'goat' }),
  });
  if (response.status !== 201) throw new Error(`create room: ${response.status} ${await response.text()}`);
  const created = (await response.json()) as CreateRoomReply;
  // The tiger's seat is claimed once, by a socket of its own; its token re-joins from then on.
  const claimer = connect(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  const claimed = (await claimer.emitWithAck('seat:claim', { roomId: created.roomId, side: 'tiger' })) as {
    ok: boolean;
    seatToken?: string;
  };
  claimer.disconnect();
  if (!claimed.ok || !claimed.seatToken) throw new Error(`claim: ${JSON.stringify(claimed)}`);
  const room: Room = {
    roomId: created.roomId,
    players: { goat: openClient(url, created.seatToken), tiger: openClient(url, claimed.seatToken) },
    spectator: openClient(url, undefined),
    moves: [],
    game: startGame(),
    acked: new Map(),
    inFlight: false,
  };
  let version = -1;
  const seen = (snapshot: Snapshot) => {
    if (snapshot.version <= version || !running()) return;
    version = snapshot.version;
    follow(room, snapshot.moves);
  };
  for (const client of [room.players.goat, room.players.tiger, room.spectator]) {
    joinOnConnect(client, room, () => version, seen);
  }
  room.spectator.socket.on('room:event', (event: { snapshot: Snapshot }) => seen(event.snapshot));
  const joined = [room.players.goat, room.players.tiger, room.spectator];
  while (joined.some((c) => Number.isNaN(c.joinedAt))) await sleep(20);
  return room;
}

/** The side to move plays a random legal move about `ratePerRoom` times a second while connected. */
function pace(room: Room, ratePerRoom: number, running: () => boolean): void {
  const tick = () => {
    if (!running()) return;
    setTimeout(tick, (1000 / ratePerRoom) * (0.5 + Math.random()));
    const moves = legalMoves(room.game);
    if (room.inFlight || moves.length === 0 || room.game.outcome) return;
    const player = room.players[room.game.position.toMove];
    if (!player.socket.connected) return;
    const ply = room.moves.length;
    const move = makeMove(moves[Math.floor(Math.random() * moves.length)]!);
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
