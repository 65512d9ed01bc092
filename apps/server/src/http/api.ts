/** The REST contract: create a room, read a room's public snapshot. */
import { CreateRoomBody, type CreateRoomReply, RoomParams } from '@bagh/protocol';
import type { SIDES } from '@bagh/rules';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Metrics } from '../metrics.js';
import type { RoomManager } from '../rooms/manager.js';
import { snapshotOf } from '../rooms/state.js';
import { HttpError } from './errors.js';

export interface ApiOptions {
  readonly rooms: RoomManager;
  readonly metrics: Metrics;
  readonly publicUrl: string | undefined;
  /** Room creations per address per minute. */
  readonly roomCreationPerMinute: number;
  /** Picks the creator's side for `side: "random"`. */
  readonly randomSide: () => (typeof SIDES)[number];
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
  throw new HttpError(400, 'BAD_REQUEST', `invalid ${what}: ${details}`);
}

export async function apiRoutes(fastify: FastifyInstance, opts: ApiOptions): Promise<void> {
  const { rooms, metrics } = opts;

  fastify.post(
    '/api/rooms',
    { config: { rateLimit: { max: opts.roomCreationPerMinute, timeWindow: 60_000 } } },
    async (request, reply) => {
      const body = parse(CreateRoomBody, request.body, 'room request');
      const side = body.side === 'random' ? opts.randomSide() : body.side;
      const { room, seatToken } = await rooms.create({
        variant: body.variant,
        options: body.options ?? {},
        side,
      });
      metrics.roomsCreated.inc();
      const path = `/r/${room.id}`;
      const created: CreateRoomReply = {
        roomId: room.id,
        side,
        seatToken,
        url: opts.publicUrl ? `${opts.publicUrl}${path}` : path,
      };
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  fastify.get('/api/rooms/:roomId', async (request, reply) => {
    const { roomId } = parse(RoomParams, request.params, 'room id');
    const room = await rooms.get(roomId);
    if (!room) throw new HttpError(404, 'NOT_FOUND', `no room ${roomId}`);
    return reply.header('cache-control', 'no-store').send(snapshotOf(room.state));
  });
}
