/**
 * The Socket.IO edge: rate-limit, zod-parse, turn the payload into a room command, ack the
 * result. Handlers are registered synchronously on connection; nothing here touches room state.
 */
import {
  type AbandonClaimRequest,
  type AckError,
  type AckOf,
  CLIENT_EVENT_NAMES,
  type ClientEvent,
  type ClientToServerEvents,
  type ErrorCode,
  isClientEvent,
  type ParsedRequestOf,
  parseRequest,
  type ServerToClientEvents,
} from '@bagh/protocol';
import type { Side } from '@bagh/rules';
import type { Logger } from 'pino';
import type { DefaultEventsMap, Server, Socket } from 'socket.io';
import type { z } from 'zod';
import { hearStored, onRedisBack, roomSubscribed } from '../cluster/redis.js';
import type { AddressOf } from '../limits/address.js';
import type { Budget } from '../limits/budget.js';
import type { RoomLimits } from '../limits/rooms.js';
import type { Metrics } from '../metrics.js';
import type { RoomManager } from '../rooms/manager.js';
import { sideOfToken } from '../rooms/presence.js';
import type { Command, Reduction } from '../rooms/reducer.js';
import type { Room, Send } from '../rooms/room.js';
import { botSeatOf, noRoom, otherSide } from '../rooms/state.js';
import { claimedSeatToken, hashSeatToken, newSeatToken } from '../rooms/tokens.js';
import { StoreUnavailableError } from '../storage/guarded.js';
import { type RateLimit, TokenBucket } from './token-bucket.js';

export interface SocketData {
  /** The rooms this socket entered (or is entering), with the seat it held there. */
  rooms: Record<string, Side | null>;
}

export type BaghServer = Server<ClientToServerEvents, ServerToClientEvents, DefaultEventsMap, SocketData>;
type BaghSocket = Socket<ClientToServerEvents, ServerToClientEvents, DefaultEventsMap, SocketData>;

export interface SocketDeps {
  readonly rooms: RoomManager;
  readonly log: Logger;
  readonly metrics: Metrics;
  readonly rateLimit: RateLimit;
  /** How many rooms one socket may be in at once. */
  readonly maxRoomsPerSocket: number;
  /** The client address a socket counts against. */
  readonly addressOf: AddressOf;
  /** Chat messages per seat (all sockets of one seat token) and per address (its spectators). */
  readonly chatBudget: Budget;
  /** Who may create a room now (rematches share the budget of the HTTP routes). */
  readonly roomLimits: RoomLimits;
}

/** The Socket.IO room of a game's spectators (the spectators' chat channel). */
export const spectatorsRoom = (roomId: string): string => `${roomId}:spectators`;

/** A client event's handler: its payload, parsed, and the ack for its one reply. */
type Handler<E extends ClientEvent> = (
  request: ParsedRequestOf<E>,
  reply: (body: AckOf<E>) => void,
) => Promise<unknown>;
/** One handler per event of the registry: a missing one does not compile. */
type Handlers = { [E in ClientEvent]: Handler<E> };

/** A refusal; `version`: the room's, when it is known. */
const failure = (code: ErrorCode, message: string, version?: number): AckError => ({
  ok: false,
  error: { code, message },
  ...(version === undefined ? {} : { version }),
});

const isRefusal = (body: unknown): body is AckError =>
  typeof body === 'object' && body !== null && 'ok' in body && body.ok === false;

/** The room a payload names, if any (read before, or without, its schema). */
const roomIdOf = (payload: unknown): string | undefined =>
  typeof payload === 'object' && payload !== null && 'roomId' in payload && typeof payload.roomId === 'string'
    ? payload.roomId
    : undefined;

/** Acks an applied command with the version of the event that applied it. */
const acked =
  (reply: (body: { ok: true; version: number }) => void) =>
  (result: Reduction): void => {
    if (result.ok) reply({ ok: true, version: result.value.version });
  };

/** A node asks the others to catch their rooms up (onRedisBack). */
const RESYNC_EVENT = 'bagh:resync';

export function attachSocketHandlers(io: BaghServer, deps: SocketDeps): void {
  // Several nodes: the changes other nodes store reach the rooms held here with their events.
  hearStored(io.of('/').adapter, (stored) => deps.rooms.feed(stored));
  // Redis back after this node lost a connection to it: every node catches its rooms up (a move
  // this node could not publish was missed on the others).
  onRedisBack(io.of('/').adapter, () => {
    deps.rooms.resync();
    io.serverSideEmit(RESYNC_EVENT);
  });
  io.on(RESYNC_EVENT, () => deps.rooms.resync());
  io.on('connection', (socket) => onConnection(io, socket, deps));
}

function onConnection(io: BaghServer, socket: BaghSocket, deps: SocketDeps): void {
  // Refused on connection (a recovered session past the socket cap): it never comes in.
  if (socket.disconnected) return;
  const { rooms, metrics } = deps;
  const log = deps.log.child({ socketId: socket.id });
  const address = deps.addressOf(socket.handshake.address, socket.handshake.headers);
  metrics.connections.inc();
  metrics.connectedSockets.inc();
  socket.data.rooms ??= {};

  const bucket = new TokenBucket(deps.rateLimit, Date.now());
  socket.use((packet, next) => {
    const ack = packet[packet.length - 1];
    if (!bucket.take(Date.now())) {
      metrics.rejected.inc({ code: 'RATE_LIMITED' });
      if (typeof ack === 'function') ack(refusal('RATE_LIMITED', 'too many events; slow down', packet[1]));
      return;
    }
    if (!isClientEvent(packet[0])) {
      log.debug({ event: String(packet[0]).slice(0, 64) }, 'unknown event ignored');
      return;
    }
    next();
  });

  /**
   * The rooms this socket is in, as objects: a refusal that did not reach the room (a bad
   * payload, a limit) still carries its version, read here without a store lookup.
   */
  const entered = new Map<string, Room>();
  /**
   * The claim key of a claim sent without one: this connection's, so that its retry of a claim
   * answered UNAVAILABLE (which may be stored all the same) gets the same token.
   */
  const connectionClaimKey = newSeatToken();

  /** A refusal about the room `payload` names: with its version when this socket is in it. */
  function refusal(code: ErrorCode, message: string, payload: unknown): AckError {
    const roomId = roomIdOf(payload);
    return failure(code, message, roomId === undefined ? undefined : entered.get(roomId)?.version);
  }

  /**
   * Why the player of a game against the computer may not join it now (the address's cap on such
   * games in play: a game left to leave memory comes back counted), or null. Others are not asked.
   */
  async function botGameRefusal(roomId: string, tokenHash: string): Promise<string | null> {
    // A store that cannot be read (several nodes' check of the version) leaves the answer to the
    // join itself, refused in the room's turn while the store fails: there it keeps the hold on
    // the mover's clock (Room) standing, as a page re-joins before it sends its move again.
    const room = await rooms.get(roomId).catch((error: unknown) => {
      if (error instanceof StoreUnavailableError) return null;
      throw error;
    });
    const state = room?.state;
    const bot = state && botSeatOf(state);
    if (!bot || state.result !== null) return null;
    if (sideOfToken(state, tokenHash) !== otherSide(bot.side)) return null;
    return deps.roomLimits.admitBotGameJoin(address, roomId);
  }

  /**
   * Takes the event's arguments (one payload, then the ack when the last is a function), validates
   * the payload with the event's schema, then runs its handler; every path ends in exactly one ack.
   */
  function run<E extends ClientEvent>(event: E, args: unknown[]): void {
    const ack = typeof args.at(-1) === 'function' ? args.pop() : undefined;
    const [payload] = args;
    let answered = false;
    const reply = (body: unknown): void => {
      if (answered) return;
      answered = true;
      let sent = body;
      if (isRefusal(body)) {
        metrics.rejected.inc({ code: body.error.code });
        log.debug({ event, code: body.error.code }, 'command rejected');
        if (body.version === undefined) sent = refusal(body.error.code, body.error.message, payload);
      }
      if (typeof ack === 'function') ack(sent);
    };
    if (args.length !== 1) {
      const why = `${event} takes one payload (an object) and an ack; it got ${args.length} arguments before the ack`;
      reply(failure('BAD_REQUEST', why));
      return;
    }
    const parsed = parseRequest(event, payload);
    if (!parsed.success) {
      const { code, message } = refusalOfIssues(parsed.error.issues, payload);
      const roomId = roomIdOf(payload);
      if (code !== 'UNAUTHORIZED' || roomId === undefined) {
        reply(failure(code, message));
        return;
      }
      // A token of no seat's shape is refused as a wrong one is: after the room is found.
      rooms
        .get(roomId)
        .then(
          (room) => reply(room ? failure(code, message, room.version) : failure('NOT_FOUND', noRoom(roomId))),
          failed,
        );
      return;
    }
    handlers[event](parsed.data, reply).catch(failed);

    function failed(error: unknown): void {
      if (error instanceof StoreUnavailableError) {
        reply(failure('UNAVAILABLE', 'the game could not be saved; try again'));
        return;
      }
      log.error({ err: error, event }, 'handler failed');
      reply(failure('INTERNAL', 'internal error'));
    }
  }

  /**
   * Runs a command in its room: `settled` sees the result in the room's turn, and a refusal is
   * acked there, with the room's version as it refused. A room not reached is refused without.
   */
  async function judge(
    roomId: string,
    command: Command,
    reply: (body: AckError) => void,
    settled: (result: Reduction, room: Room) => void,
    send?: Send,
  ): Promise<Reduction> {
    const result = await rooms.dispatch(
      roomId,
      command,
      (res, room) => {
        settled(res, room);
        if (!res.ok) reply(failure(res.error.code, res.error.message, room.version));
      },
      undefined,
      send,
    );
    if (!result.ok) reply(failure(result.error.code, result.error.message));
    return result;
  }

  /** Marks the room as entered before the command runs, so a disconnect meanwhile reaches it. */
  function enter(roomId: string): boolean {
    if (roomId in socket.data.rooms) return true;
    if (Object.keys(socket.data.rooms).length >= deps.maxRoomsPerSocket) return false;
    socket.data.rooms[roomId] = null;
    return true;
  }

  /**
   * Before a join or a claim is judged, the socket is put in the room's Socket.IO room and, with
   * several nodes, this node's subscription to the room's channel is confirmed: otherwise an event
   * another node publishes just after the reply is not heard here. The events that arrive before
   * the reply are kept by the page and applied after it (those up to its version are dropped).
   * A spectator-to-be (a join without a seat token) enters the spectators' chat channel the same
   * way, so that chat sent just after its reply (which holds the chat so far) is heard too.
   * Returns how this command's own events are sent: to the others only, when the socket was not
   * in the room (its reply has them), else as every broadcast.
   */
  async function admit(
    roomId: string,
    spectating: boolean,
  ): Promise<{ readonly was: boolean; readonly send?: Send }> {
    if (socket.rooms.has(roomId)) return { was: true };
    const channels = spectating ? [roomId, spectatorsRoom(roomId)] : [roomId];
    await socket.join(channels);
    const adapter = io.of('/').adapter;
    const heard = await Promise.all(channels.map((channel) => roomSubscribed(adapter, channel)));
    if (heard.includes(false)) {
      log.warn({ roomId }, 'join: the room channel subscription is not confirmed yet; judged all the same');
    }
    return { was: false, send: (event) => socket.to(event.roomId).emit('room:event', event) };
  }

  /** After a join or a claim that `admit`ted a socket not in the room: out again unless it entered. */
  function unadmit(roomId: string, was: boolean): void {
    if (!was && !entered.has(roomId)) {
      void socket.leave(roomId);
      void socket.leave(spectatorsRoom(roomId));
    }
  }

  /**
   * The socket closed while `admit` waited for the room's subscription: its join or claim is not
   * judged (a seat claimed for no one would stay taken, shown connected).
   */
  function gone(roomId: string, was: boolean, reply: (body: AckError) => void): boolean {
    if (socket.connected) return false;
    if (!replaced()) delete socket.data.rooms[roomId];
    unadmit(roomId, was);
    reply(failure('NOT_ALLOWED', 'the connection closed before the room was entered'));
    return true;
  }

  /**
   * This socket closed, and a recovered connection goes on with its id and its `data` (one node:
   * connection state recovery): what this one left behind is that one's now.
   */
  const replaced = (): boolean => io.of('/').sockets.has(socket.id);

  /** After a join or a claim: in the room (with its seat, if any), or out of it again. */
  function settleEntry(roomId: string, result: Reduction, room: Room): Side | null {
    const { present, side } = room.placeOf(socket.id);
    if (present) enterAs(roomId, room, side);
    else if (!result.ok) delete socket.data.rooms[roomId];
    return side;
  }

  /** The socket is in the room, with `side` (null: watching): it hears the room's events (and a spectator's channel). */
  function enterAs(roomId: string, room: Room, side: Side | null): void {
    socket.data.rooms[roomId] = side;
    entered.set(roomId, room);
    // A socket that left meanwhile is in no room (a join now would stay behind it), and its
    // disconnect reached the room before it was there: the room hears it now.
    if (socket.connected) {
      void socket.join(roomId);
      if (side === null) void socket.join(spectatorsRoom(roomId));
      else void socket.leave(spectatorsRoom(roomId));
    } else if (!replaced()) void rooms.dispatch(roomId, { type: 'disconnect', socketId });
  }

  /**
   * A spectator whose arrival the store could not keep (an outage) watches all the same, not
   * counted among the spectators: watching changes nothing in the game, and an outage should not
   * blank the room for its audience. Its later commands are a stranger's; a re-join counts it.
   */
  function watchUncounted(roomId: string, room: Room, reply: (body: AckOf<'room:join'>) => void): void {
    if (!socket.connected) return;
    enterAs(roomId, room, null);
    reply({ ok: true, role: 'spectator', snapshot: room.snapshot(), chat: room.chatFor(true) });
  }

  /** The room was not found: it is not entered either. */
  function forget(roomId: string, result: Reduction): void {
    if (!result.ok && result.error.code === 'NOT_FOUND') delete socket.data.rooms[roomId];
  }

  const socketId = socket.id;
  /** A command of the game, acked with the version of the event that applied it. */
  const command =
    <R extends { roomId: string }>(toCommand: (request: R) => Command) =>
    async (request: R, reply: (body: AckOf<'resign'>) => void): Promise<void> => {
      await judge(request.roomId, toCommand(request), reply, acked(reply));
    };

  /** A rematch offer or accept; once the rematch starts, acked with its room, the players told their seats. */
  async function rematch(
    roomId: string,
    accept: boolean,
    reply: (body: AckOf<'rematch:offer'>) => void,
  ): Promise<void> {
    const admit = (againstBot: boolean) => deps.roomLimits.admit(address, againstBot);
    const result = await rooms.rematch(roomId, { socketId, accept, admit }, (res) => {
      if (!res.ok) return;
      const { version, started } = res.value;
      // Each player's sockets learn, privately, their seat in the new room.
      for (const { sockets, seat } of started?.seats ?? []) io.to([...sockets]).emit('seat:assigned', seat);
      reply({ ok: true, version, ...(started ? { roomId: started.roomId } : {}) });
    });
    if (!result.ok) reply(failure(result.error.code, result.error.message));
  }

  const handlers: Handlers = {
    'room:join': async ({ roomId, seatToken, since }, reply) => {
      const tokenHash = seatToken === undefined ? undefined : hashSeatToken(seatToken);
      const tooManyBotGames = tokenHash && (await botGameRefusal(roomId, tokenHash));
      if (tooManyBotGames) return reply(failure('RATE_LIMITED', tooManyBotGames));
      if (!enter(roomId)) return reply(failure('NOT_ALLOWED', 'this connection is in too many rooms'));
      const join = { type: 'join', socketId, tokenHash } as const;
      const { was, send } = await admit(roomId, seatToken === undefined);
      if (gone(roomId, was, reply)) return;
      const judged = (res: Reduction, room: Room) => {
        // Only a stranger: a socket seated here keeps its seat (a join without a token), not watches.
        const stranger = tokenHash === undefined && room.placeOf(socketId).side === null;
        if (!res.ok && res.error.code === 'UNAVAILABLE' && stranger)
          return watchUncounted(roomId, room, reply);
        const side = settleEntry(roomId, res, room);
        if (!res.ok) return;
        const events = since === undefined ? undefined : room.eventsSince(since);
        if (since !== undefined && events === null) {
          room.log.debug({ since, version: room.version }, 'join: gap not held, snapshot only');
        }
        reply({
          ok: true,
          role: side ?? 'spectator',
          snapshot: room.snapshot(),
          ...(events ? { events } : {}),
          chat: room.chatFor(side === null),
        });
      };
      try {
        forget(roomId, await judge(roomId, join, reply, judged, send));
      } finally {
        unadmit(roomId, was);
      }
    },

    'seat:claim': async ({ roomId, side, claimKey }, reply) => {
      if (!enter(roomId)) return reply(failure('NOT_ALLOWED', 'this connection is in too many rooms'));
      // A claim answered UNAVAILABLE, or whose reply was lost, may be stored all the same: its
      // next try with the same key gets the same token, and the seat (the reducer's claim).
      const seatToken = claimedSeatToken(roomId, side, claimKey ?? connectionClaimKey);
      const claim = { type: 'claim', socketId, side, tokenHash: hashSeatToken(seatToken) } as const;
      const { was, send } = await admit(roomId, false);
      if (gone(roomId, was, reply)) return;
      const judged = (res: Reduction, room: Room) => {
        settleEntry(roomId, res, room);
        if (!res.ok) return;
        room.log.info({ side }, 'seat claimed');
        reply({ ok: true, seatToken, snapshot: room.snapshot() });
      };
      try {
        forget(roomId, await judge(roomId, claim, reply, judged, send));
      } finally {
        unadmit(roomId, was);
      }
    },

    move: async ({ roomId, move, ply }, reply) => {
      const stop = metrics.moveSeconds.startTimer();
      await judge(roomId, { type: 'move', socketId, move, ply }, reply, acked(reply));
      stop();
    },

    'room:leave': async ({ roomId }, reply) => {
      if (!(roomId in socket.data.rooms)) return reply({ ok: true });
      await judge(roomId, { type: 'disconnect', socketId }, reply, () => {
        delete socket.data.rooms[roomId];
        entered.delete(roomId);
        void socket.leave(roomId);
        void socket.leave(spectatorsRoom(roomId));
        reply({ ok: true });
      });
    },

    resign: command(() => ({ type: 'resign', socketId })),
    abort: command(() => ({ type: 'abort', socketId })),
    'draw:offer': command(() => ({ type: 'draw-offer', socketId })),
    'draw:accept': command(() => ({ type: 'draw-accept', socketId })),
    'draw:decline': command(() => ({ type: 'draw-decline', socketId })),
    'abandon:claim': command(({ outcome }: AbandonClaimRequest) => ({
      type: 'abandon-claim',
      socketId,
      outcome,
    })),

    'chat:send': async ({ roomId, channel, text }, reply) => {
      // A seat's sockets share its budget; spectators (and strangers) share their address's.
      const place = socket.data.rooms[roomId];
      const key = place ? `seat:${roomId}:${place}` : `address:${address}`;
      if (!(await deps.chatBudget.take(key)).ok) {
        metrics.limited.inc({ limit: 'chat' });
        return reply(failure('RATE_LIMITED', 'too many chat messages; wait a few seconds'));
      }
      await judge(roomId, { type: 'chat', socketId, channel, text }, reply, acked(reply));
    },

    'rematch:accept': ({ roomId }, reply) =>
      rematch(roomId, true, (body) => {
        if (!body.ok) return reply(body);
        // An accepted rematch always starts its room; its reply must name it.
        const { roomId: started } = body;
        if (started === undefined)
          return reply(failure('INTERNAL', 'the rematch did not start', body.version));
        reply({ ...body, roomId: started });
      }),
    'rematch:offer': ({ roomId }, reply) => rematch(roomId, false, reply),
  };
  for (const event of CLIENT_EVENT_NAMES) {
    socket.on(event, (...args: unknown[]) => run(event, args));
  }

  socket.on('disconnect', (reason) => {
    metrics.connectedSockets.dec();
    log.debug({ reason }, 'socket disconnected');
    for (const roomId of Object.keys(socket.data.rooms)) {
      void rooms.dispatch(roomId, { type: 'disconnect', socketId: socket.id });
    }
  });

  if (socket.recovered) {
    // Connection state recovery brought back rooms and data; tell each room it is here again.
    for (const [roomId, side] of Object.entries(socket.data.rooms)) {
      void rooms.dispatch(roomId, { type: 'connect', socketId: socket.id, side }, (res, room) => {
        if (res.ok) entered.set(roomId, room);
      });
    }
  }
}

/**
 * A payload the schema refuses. A room id or seat token of the wrong shape names no room or seat,
 * so it is answered as one that matches nothing is (`NOT_FOUND`, `UNAUTHORIZED`); anything else
 * is `BAD_REQUEST`, naming every issue.
 */
function refusalOfIssues(
  issues: readonly z.core.$ZodIssue[],
  payload: unknown,
): { code: 'NOT_FOUND' | 'UNAUTHORIZED' | 'BAD_REQUEST'; message: string } {
  const malformed = (key: string) => (issue: z.core.$ZodIssue) =>
    issue.code === 'invalid_format' && issue.path.length === 1 && issue.path[0] === key;
  if (issues.every(malformed('roomId'))) {
    return { code: 'NOT_FOUND', message: noRoom((payload as { roomId: unknown }).roomId) };
  }
  if (issues.every(malformed('seatToken'))) {
    return { code: 'UNAUTHORIZED', message: 'this seat token belongs to no seat of this room' };
  }
  return { code: 'BAD_REQUEST', message: issues.map(describeIssue).join('; ') };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${path}${issue.message}`;
}
