/**
 * The Socket.IO edge: rate-limit, zod-parse, turn the payload into a room command, ack the
 * result. Handlers are registered synchronously on connection; nothing here touches room state.
 */
import {
  AbandonClaimRequest,
  type AckError,
  ChatRequest,
  ClaimRequest,
  type ClientToServerEvents,
  type ErrorCode,
  GameRequest,
  JoinRequest,
  LeaveRequest,
  MoveRequest,
  type ServerToClientEvents,
} from '@bagh/protocol';
import type { Side } from '@bagh/rules';
import type { Logger } from 'pino';
import type { DefaultEventsMap, Server, Socket } from 'socket.io';
import type { z } from 'zod';
import type { AddressOf } from '../limits/address.js';
import type { Budget } from '../limits/budget.js';
import type { RoomLimits } from '../limits/rooms.js';
import type { Metrics } from '../metrics.js';
import type { RoomManager } from '../rooms/manager.js';
import type { Command, Reduction } from '../rooms/reducer.js';
import { hashSeatToken, newSeatToken } from '../rooms/tokens.js';
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

const CLIENT_EVENT_NAMES: ReadonlySet<string> = new Set([
  'room:join',
  'seat:claim',
  'move',
  'room:leave',
  'resign',
  'abort',
  'draw:offer',
  'draw:accept',
  'draw:decline',
  'rematch:offer',
  'rematch:accept',
  'abandon:claim',
  'chat:send',
]);

/** The Socket.IO room of a game's spectators (the spectators' chat channel). */
export const spectatorsRoom = (roomId: string): string => `${roomId}:spectators`;

type Reply = (payload: object) => void;

const failure = (code: ErrorCode, message: string): AckError => ({ ok: false, error: { code, message } });

export function attachSocketHandlers(io: BaghServer, deps: SocketDeps): void {
  io.on('connection', (socket) => onConnection(io, socket, deps));
}

function onConnection(io: BaghServer, socket: BaghSocket, deps: SocketDeps): void {
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
      if (typeof ack === 'function') ack(failure('RATE_LIMITED', 'too many events; slow down'));
      return;
    }
    if (!CLIENT_EVENT_NAMES.has(String(packet[0]))) {
      log.debug({ event: String(packet[0]).slice(0, 64) }, 'unknown event ignored');
      return;
    }
    next();
  });

  /** Validates the payload, then runs the handler; every path ends in exactly one ack. */
  function handle<S extends z.ZodType>(
    schema: S,
    event: string,
    handler: (request: z.infer<S>, reply: Reply) => Promise<unknown>,
  ): (payload: unknown, ack?: unknown) => void {
    return (payload, ack) => {
      let answered = false;
      const reply: Reply = (body) => {
        if (answered) return;
        answered = true;
        if ('ok' in body && body.ok === false) {
          const code = (body as AckError).error.code;
          metrics.rejected.inc({ code });
          log.debug({ event, code }, 'command rejected');
        }
        if (typeof ack === 'function') ack(body);
      };
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        reply(failure('BAD_REQUEST', parsed.error.issues.map(describeIssue).join('; ')));
        return;
      }
      handler(parsed.data, reply).catch((error: unknown) => {
        if (error instanceof StoreUnavailableError) {
          return reply(failure('UNAVAILABLE', 'the game could not be saved; try again'));
        }
        log.error({ err: error, event }, 'handler failed');
        reply(failure('INTERNAL', 'internal error'));
      });
    };
  }

  /** Marks the room as entered before the command runs, so a disconnect meanwhile reaches it. */
  function enter(roomId: string): boolean {
    if (roomId in socket.data.rooms) return true;
    if (Object.keys(socket.data.rooms).length >= deps.maxRoomsPerSocket) return false;
    socket.data.rooms[roomId] = null;
    return true;
  }

  function settleEntry(roomId: string, result: Reduction, present: boolean, side: Side | null): void {
    if (present) {
      socket.data.rooms[roomId] = side;
      void socket.join(roomId);
      if (side === null) void socket.join(spectatorsRoom(roomId));
      else void socket.leave(spectatorsRoom(roomId));
    } else if (!result.ok) {
      delete socket.data.rooms[roomId];
    }
  }

  socket.on(
    'room:join',
    handle(JoinRequest, 'room:join', async ({ roomId, seatToken, since }, reply) => {
      if (!enter(roomId)) return reply(failure('NOT_ALLOWED', 'this connection is in too many rooms'));
      const tokenHash = seatToken === undefined ? undefined : hashSeatToken(seatToken);
      const result = await rooms.dispatch(
        roomId,
        { type: 'join', socketId: socket.id, tokenHash },
        (res, room) => {
          const { present, side } = room.placeOf(socket.id);
          settleEntry(roomId, res, present, side);
          if (!res.ok) return reply(failure(res.error.code, res.error.message));
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
        },
      );
      if (!result.ok) {
        if (result.error.code === 'NOT_FOUND') delete socket.data.rooms[roomId];
        reply(failure(result.error.code, result.error.message));
      }
    }),
  );

  socket.on(
    'seat:claim',
    handle(ClaimRequest, 'seat:claim', async ({ roomId, side }, reply) => {
      if (!enter(roomId)) return reply(failure('NOT_ALLOWED', 'this connection is in too many rooms'));
      const seatToken = newSeatToken();
      const command = {
        type: 'claim',
        socketId: socket.id,
        side,
        tokenHash: hashSeatToken(seatToken),
      } as const;
      const result = await rooms.dispatch(roomId, command, (res, room) => {
        const place = room.placeOf(socket.id);
        settleEntry(roomId, res, place.present, place.side);
        if (!res.ok) return reply(failure(res.error.code, res.error.message));
        room.log.info({ side }, 'seat claimed');
        reply({ ok: true, seatToken, snapshot: room.snapshot() });
      });
      if (!result.ok) {
        if (result.error.code === 'NOT_FOUND') delete socket.data.rooms[roomId];
        reply(failure(result.error.code, result.error.message));
      }
    }),
  );

  socket.on(
    'move',
    handle(MoveRequest, 'move', async ({ roomId, move, ply }, reply) => {
      const stop = metrics.moveSeconds.startTimer();
      const command = { type: 'move', socketId: socket.id, move, ply } as const;
      const result = await rooms.dispatch(roomId, command, (res) => {
        if (res.ok) reply({ ok: true, version: res.value.version });
      });
      stop();
      if (!result.ok) reply(failure(result.error.code, result.error.message));
    }),
  );

  socket.on(
    'room:leave',
    handle(LeaveRequest, 'room:leave', async ({ roomId }, reply) => {
      if (!(roomId in socket.data.rooms)) return reply({ ok: true });
      const result = await rooms.dispatch(roomId, { type: 'disconnect', socketId: socket.id }, () => {
        delete socket.data.rooms[roomId];
        void socket.leave(roomId);
        void socket.leave(spectatorsRoom(roomId));
        reply({ ok: true });
      });
      if (!result.ok) reply(failure(result.error.code, result.error.message));
    }),
  );

  /** A command of the game, acked with the version of the event that applied it. */
  function command<S extends z.ZodType<{ roomId: string }>>(
    event: string,
    schema: S,
    toCommand: (request: z.infer<S>) => Command,
  ): void {
    socket.on(
      event as 'resign',
      handle(schema, event, async (request, reply) => {
        const result = await rooms.dispatch(request.roomId, toCommand(request), (res) => {
          if (res.ok) reply({ ok: true, version: res.value.version });
        });
        if (!result.ok) reply(failure(result.error.code, result.error.message));
      }),
    );
  }
  const socketId = socket.id;
  command('resign', GameRequest, () => ({ type: 'resign', socketId }));
  command('abort', GameRequest, () => ({ type: 'abort', socketId }));
  command('draw:offer', GameRequest, () => ({ type: 'draw-offer', socketId }));
  command('draw:accept', GameRequest, () => ({ type: 'draw-accept', socketId }));
  command('draw:decline', GameRequest, () => ({ type: 'draw-decline', socketId }));
  command('abandon:claim', AbandonClaimRequest, ({ outcome }) => ({
    type: 'abandon-claim',
    socketId,
    outcome,
  }));

  socket.on(
    'chat:send',
    handle(ChatRequest, 'chat:send', async ({ roomId, channel, text }, reply) => {
      // A seat's sockets share its budget; spectators (and strangers) share their address's.
      const place = socket.data.rooms[roomId];
      const key = place ? `seat:${roomId}:${place}` : `address:${address}`;
      if (!(await deps.chatBudget.take(key)).ok) {
        metrics.limited.inc({ limit: 'chat' });
        return reply(failure('RATE_LIMITED', 'too many chat messages; wait a few seconds'));
      }
      const result = await rooms.dispatch(roomId, { type: 'chat', socketId, channel, text }, (res) => {
        if (res.ok) reply({ ok: true, version: res.value.version });
      });
      if (!result.ok) reply(failure(result.error.code, result.error.message));
    }),
  );

  /** A rematch offer or accept; once the rematch starts, acked with its room, the players told their seats. */
  async function rematch(roomId: string, accept: boolean, reply: Reply): Promise<void> {
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

  socket.on(
    'rematch:accept',
    handle(GameRequest, 'rematch:accept', ({ roomId }, reply) => rematch(roomId, true, reply)),
  );

  socket.on(
    'rematch:offer',
    handle(GameRequest, 'rematch:offer', ({ roomId }, reply) => rematch(roomId, false, reply)),
  );

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
      void rooms.dispatch(roomId, { type: 'connect', socketId: socket.id, side });
    }
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${path}${issue.message}`;
}
