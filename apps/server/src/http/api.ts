/** The REST contract: create a room, read a room's snapshot, list live rooms, export and import records. */
import {
  CreateRoomBody,
  type CreateRoomReply,
  ImportRecordBody,
  type ImportRecordReply,
  type LiveReply,
  MAX_PLIES,
  MAX_RECORD_CHARS,
  RoomParams,
} from '@bagh/protocol';
import { makeRecord, parseRecord, type SIDES } from '@bagh/rules';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AddressOf } from '../limits/address.js';
import type { RoomLimits } from '../limits/rooms.js';
import type { RoomManager } from '../rooms/manager.js';
import type { Room } from '../rooms/room.js';
import { snapshotOf } from '../rooms/snapshot.js';
import { noRoom, type RoomState } from '../rooms/state.js';
import { HttpError } from './errors.js';

export interface ApiOptions {
  readonly rooms: RoomManager;
  readonly publicUrl: string | undefined;
  /** The client address a request counts against. */
  readonly addressOf: AddressOf;
  /** Who may create a room now (shared with the socket edge's rematches). */
  readonly roomLimits: RoomLimits;
  /** Picks the creator's side for `side: "random"`. */
  readonly randomSide: () => (typeof SIDES)[number];
}

/** `value` parsed by `schema`, or a 400 BAD_REQUEST naming each field at fault. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
  throw new HttpError(400, 'BAD_REQUEST', `invalid ${what}: ${details}`);
}

export async function apiRoutes(fastify: FastifyInstance, opts: ApiOptions): Promise<void> {
  const { rooms } = opts;

  /** Creates a room with `create` if the request's address may have one more; 429 otherwise. */
  async function admitted<T extends { readonly room: Room }>(
    request: FastifyRequest,
    againstBot: boolean,
    create: () => Promise<T>,
  ): Promise<T> {
    const admission = await opts.roomLimits.admit(
      opts.addressOf(request.raw.socket.remoteAddress, request.headers),
      againstBot,
    );
    if (!admission.ok) {
      throw new HttpError(429, 'RATE_LIMITED', admission.message, admission.retryAfterMs);
    }
    try {
      const made = await create();
      admission.created(made.room.id);
      return made;
    } catch (error) {
      admission.cancel();
      throw error;
    }
  }

  fastify.post('/api/rooms', async (request, reply) => {
    const body = parse(CreateRoomBody, request.body, 'room request');
    const side = body.side === 'random' ? opts.randomSide() : body.side;
    const { room, seatToken } = await admitted(request, body.opponent?.bot !== undefined, () =>
      rooms.create({
        variant: body.variant,
        options: body.options ?? {},
        side,
        clock: body.clock ?? null,
        public: body.public ?? false,
        bot: body.opponent?.bot,
      }),
    );
    const path = `/r/${room.id}`;
    const created: CreateRoomReply = {
      roomId: room.id,
      side,
      seatToken,
      url: opts.publicUrl ? `${opts.publicUrl}${path}` : path,
    };
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });

  /** The room, its clock judged as of now. */
  async function roomAt(params: unknown): Promise<Room> {
    // An id of the wrong shape names no room: unknown, as one that matches nothing is.
    const parsed = RoomParams.safeParse(params);
    const room = parsed.success ? await rooms.get(parsed.data.roomId) : null;
    if (!room) throw new HttpError(404, 'NOT_FOUND', noRoom((params as { roomId?: unknown }).roomId));
    await room.settleTime();
    return room;
  }

  fastify.get('/api/rooms/:roomId', async (request, reply) => {
    const room = await roomAt(request.params);
    const now = Math.max(room.state.at, Date.now());
    return reply.header('cache-control', 'no-store').send(snapshotOf({ ...room.state, at: now }));
  });

  fastify.get('/api/rooms/:roomId/record', async (request, reply) => {
    const room = await roomAt(request.params);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `inline; filename="bagh-${room.id}.txt"`)
      .type('text/plain; charset=utf-8')
      .send(recordOf(room.state));
  });

  fastify.get('/api/live', async (_request, reply) => {
    const live: LiveReply = { rooms: await rooms.live() };
    return reply.header('cache-control', 'no-store').send(live);
  });

  // A record of the longest game a room keeps is larger than the other bodies' limit (UTF-8:
  // up to 3 bytes a character).
  const recordBodyLimit = 3 * MAX_RECORD_CHARS + 1024;
  fastify.post('/api/records', { bodyLimit: recordBodyLimit }, async (request, reply) => {
    const { record } = parse(ImportRecordBody, request.body, 'record request');
    // Admitted before the record is replayed, the costly part: a refused import still counts.
    const { room } = await admitted(request, false, async () => {
      const parsed = parseRecord(record, { maxMoves: MAX_PLIES });
      if (!parsed.ok) throw new HttpError(400, 'BAD_REQUEST', parsed.error.message);
      // The rules refuse a Termination that is not a reason a game of those moves can have.
      return { room: await rooms.importRecord(parsed.value) };
    });
    const path = `/r/${room.id}`;
    const created: ImportRecordReply = {
      roomId: room.id,
      url: opts.publicUrl ? `${opts.publicUrl}${path}` : path,
    };
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });
}

/** Headers makeRecord writes itself; an imported record's own values of them are not copied. */
const OWN_HEADERS = new Set(['Variant', 'Options', 'Result', 'Termination', 'Position']);

const recordDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '.');

/** The room's game as a RULES.md R42 record, with the room's result. */
function recordOf(state: RoomState): string {
  const headers: Record<string, string> = {};
  const imported = state.init.imported;
  if (imported) {
    for (const [key, value] of Object.entries(imported.headers))
      if (!OWN_HEADERS.has(key)) headers[key] = value;
  } else {
    headers.Room = state.roomId;
    headers.Date = recordDate(state.createdAt);
    const control = state.clock?.control;
    if (control) headers.TimeControl = `${control.initialMs / 1000}+${control.incrementMs / 1000}`;
  }
  return makeRecord(state.game, { result: state.result, headers });
}
