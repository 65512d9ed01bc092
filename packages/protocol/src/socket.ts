/** Socket.IO events: one schema per payload, the event maps derived from them. */
import { z } from 'zod';
import { MoveText, Ply, RoomId, SeatToken, Side, Version } from './common.js';
import { AckError } from './errors.js';
import { Snapshot } from './snapshot.js';

export const Role = z.enum(['tiger', 'goat', 'spectator']);
export type Role = z.infer<typeof Role>;

// --- client → server ---------------------------------------------------------------------------

export const JoinRequest = z.object({
  roomId: RoomId,
  seatToken: SeatToken.optional(),
  /** The last version the client saw; the reply then carries the events it missed, if kept. */
  since: Version.optional(),
});
export type JoinRequest = z.infer<typeof JoinRequest>;

export const ClaimRequest = z.object({ roomId: RoomId, side: Side });
export type ClaimRequest = z.infer<typeof ClaimRequest>;

export const MoveRequest = z.object({ roomId: RoomId, move: MoveText, ply: Ply });
export type MoveRequest = z.infer<typeof MoveRequest>;

/** Leaves a room: the socket stops receiving its events (a seat it held stays its player's). */
export const LeaveRequest = z.object({ roomId: RoomId });
export type LeaveRequest = z.infer<typeof LeaveRequest>;

// --- server → client ---------------------------------------------------------------------------

export const EventType = z.enum(['seat', 'presence', 'move']);
export type EventType = z.infer<typeof EventType>;

/** Broadcast after every change; `version` rises by one per event. */
export const RoomEvent = z.object({
  roomId: RoomId,
  version: Version,
  type: EventType,
  /** seat: the side taken; move: the side that moved. */
  side: Side.optional(),
  /** move: the move text, canonical. */
  move: z.string().optional(),
  snapshot: Snapshot,
});
export type RoomEvent = z.infer<typeof RoomEvent>;

// --- acks --------------------------------------------------------------------------------------

export const JoinReply = z.object({
  ok: z.literal(true),
  role: Role,
  snapshot: Snapshot,
  /** With `since`: the events after it, when the server still holds them all. */
  events: z.array(RoomEvent).optional(),
});
export const ClaimReply = z.object({ ok: z.literal(true), seatToken: SeatToken, snapshot: Snapshot });
export const MoveReply = z.object({ ok: z.literal(true), version: Version });
export const LeaveReply = z.object({ ok: z.literal(true) });

export const JoinAck = z.union([JoinReply, AckError]);
export const ClaimAck = z.union([ClaimReply, AckError]);
export const MoveAck = z.union([MoveReply, AckError]);
export type JoinAck = z.infer<typeof JoinAck>;
export type ClaimAck = z.infer<typeof ClaimAck>;
export type MoveAck = z.infer<typeof MoveAck>;
export const LeaveAck = z.union([LeaveReply, AckError]);
export type LeaveAck = z.infer<typeof LeaveAck>;

/** Every client event: its payload schema and its reply schema. */
export const CLIENT_EVENTS = {
  'room:join': { request: JoinRequest, reply: JoinReply },
  'seat:claim': { request: ClaimRequest, reply: ClaimReply },
  move: { request: MoveRequest, reply: MoveReply },
  'room:leave': { request: LeaveRequest, reply: LeaveReply },
} as const;
export type ClientEventName = keyof typeof CLIENT_EVENTS;

export const SERVER_EVENTS = {
  'room:event': RoomEvent,
} as const;

type Ack<R extends z.ZodType> = (reply: z.infer<R> | AckError) => void;

export interface ClientToServerEvents {
  'room:join': (request: JoinRequest, ack: Ack<typeof JoinReply>) => void;
  'seat:claim': (request: ClaimRequest, ack: Ack<typeof ClaimReply>) => void;
  move: (request: MoveRequest, ack: Ack<typeof MoveReply>) => void;
  'room:leave': (request: LeaveRequest, ack: Ack<typeof LeaveReply>) => void;
}

export interface ServerToClientEvents {
  'room:event': (event: RoomEvent) => void;
}
