/** Socket.IO events: one schema per payload, the event maps derived from them. */
import { z } from 'zod';
import { MoveText, Ply, RoomId, SeatToken, Side, Version } from './common.js';
import { AckError } from './errors.js';
import { EpochMs, Snapshot } from './snapshot.js';

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

export const ClaimRequest = z.object({
  roomId: RoomId,
  side: Side,
  /**
   * Chosen by the client (128+ random bits, base64url) and sent again when it tries the claim
   * again: the seat token is made from it, so a claim that was stored but whose reply was lost
   * is answered, on its retry, with the same token and the seat.
   */
  claimKey: SeatToken.optional(),
});
export type ClaimRequest = z.infer<typeof ClaimRequest>;

export const MoveRequest = z.object({ roomId: RoomId, move: MoveText, ply: Ply });
export type MoveRequest = z.infer<typeof MoveRequest>;

/** Leaves a room: the socket stops receiving its events (a seat it held stays its player's). */
export const LeaveRequest = z.object({ roomId: RoomId });
export type LeaveRequest = z.infer<typeof LeaveRequest>;

/** The game commands of a seated player: `{ roomId }` only. */
export const GameRequest = z.object({ roomId: RoomId });
export type GameRequest = z.infer<typeof GameRequest>;

export const ClaimOutcome = z.enum(['win', 'draw']);
/** Claims the game of an opponent gone past the grace period: a win or a draw. */
export const AbandonClaimRequest = z.object({ roomId: RoomId, outcome: ClaimOutcome });
export type AbandonClaimRequest = z.infer<typeof AbandonClaimRequest>;

export const ChatChannel = z.enum(['players', 'spectators']);
export type ChatChannel = z.infer<typeof ChatChannel>;
/** Line breaks and tabs: a chat message is one line, so they become one space. */
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/**
 * Characters that show nothing themselves but change what others see, or make a message look
 * empty: C0/C1 controls, the bidi marks, embeddings, overrides (U+202E) and isolates, the soft
 * hyphen, zero-width space, word joiner and invisible operators, the deprecated format controls,
 * the byte order mark, Hangul fillers and lone surrogates. Joiners (U+200C/U+200D) stay: emoji and
 * Indic scripts need them; so do tag characters (subdivision flags).
 */
const HIDDEN_CONTROLS =
  /[\p{Cc}\p{Cs}\u00AD\u061C\u115F\u1160\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0]/gu;
/** Combining marks past the 8th in a row (text stacked over other lines) are dropped. */
const STACKED_MARKS = /(\p{M}{8})\p{M}+/gu;

/** The text with line breaks made spaces, the hidden controls removed and mark stacks cut. */
export const stripControls = (text: string): string =>
  text.replace(LINE_BREAKS, ' ').replace(HIDDEN_CONTROLS, '').replace(STACKED_MARKS, '$1');

/** Chat text: trimmed, 1–500 characters; controls stripped (see stripControls), and something left. */
export const ChatText = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .transform((text) => stripControls(text).trim())
  .pipe(z.string().min(1, 'nothing to show once control characters are removed'));
export const ChatRequest = z.object({ roomId: RoomId, channel: ChatChannel, text: ChatText });
export type ChatRequest = z.infer<typeof ChatRequest>;

// --- server → client ---------------------------------------------------------------------------

export const EventType = z.enum(['seat', 'presence', 'move', 'result', 'draw', 'rematch', 'chat']);
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

/** A chat message; `from` is the sender's role: `tiger`, `goat` or `spectator`. */
export const ChatMessage = z.object({
  roomId: RoomId,
  channel: ChatChannel,
  from: Role,
  text: z.string(),
  at: EpochMs,
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** Sent privately to a player's sockets: their seat in a new room (a rematch). */
export const SeatAssigned = z.object({ roomId: RoomId, side: Side, seatToken: SeatToken });
export type SeatAssigned = z.infer<typeof SeatAssigned>;

// --- acks --------------------------------------------------------------------------------------

export const JoinReply = z.object({
  ok: z.literal(true),
  role: Role,
  snapshot: Snapshot,
  /** With `since`: the events after it, when the server still holds them all. */
  events: z.array(RoomEvent).optional(),
  /** The chat kept with the game: the players' channel, and for spectators theirs too (oldest first). */
  chat: z.array(ChatMessage),
});
export const ClaimReply = z.object({ ok: z.literal(true), seatToken: SeatToken, snapshot: Snapshot });
export const MoveReply = z.object({ ok: z.literal(true), version: Version });
export const LeaveReply = z.object({ ok: z.literal(true) });
/** The version of the event that applied the command. */
export const CommandReply = z.object({ ok: z.literal(true), version: Version });
export const RematchAcceptReply = z.object({ ok: z.literal(true), version: Version, roomId: RoomId });
/** In a room against the computer an offer starts the rematch at once: `roomId` is the new room. */
export const RematchOfferReply = z.object({
  ok: z.literal(true),
  version: Version,
  roomId: RoomId.optional(),
});

export const JoinAck = z.union([JoinReply, AckError]);
export const ClaimAck = z.union([ClaimReply, AckError]);
export const MoveAck = z.union([MoveReply, AckError]);
export type JoinAck = z.infer<typeof JoinAck>;
export type ClaimAck = z.infer<typeof ClaimAck>;
export type MoveAck = z.infer<typeof MoveAck>;
export const LeaveAck = z.union([LeaveReply, AckError]);
export type LeaveAck = z.infer<typeof LeaveAck>;
export const CommandAck = z.union([CommandReply, AckError]);
export type CommandAck = z.infer<typeof CommandAck>;
export const RematchAcceptAck = z.union([RematchAcceptReply, AckError]);
export type RematchAcceptAck = z.infer<typeof RematchAcceptAck>;

/**
 * The one registry of client events: for each, the payload it takes and the reply its ack
 * carries on success (a failure is always `AckError`). The server registers its handlers from
 * it, the doc tool documents it, and the event maps below are derived from it.
 */
export const CLIENT_EVENTS = {
  'room:join': { request: JoinRequest, reply: JoinReply },
  'seat:claim': { request: ClaimRequest, reply: ClaimReply },
  move: { request: MoveRequest, reply: MoveReply },
  'room:leave': { request: LeaveRequest, reply: LeaveReply },
  resign: { request: GameRequest, reply: CommandReply },
  abort: { request: GameRequest, reply: CommandReply },
  'draw:offer': { request: GameRequest, reply: CommandReply },
  'draw:accept': { request: GameRequest, reply: CommandReply },
  'draw:decline': { request: GameRequest, reply: CommandReply },
  'rematch:offer': { request: GameRequest, reply: RematchOfferReply },
  'rematch:accept': { request: GameRequest, reply: RematchAcceptReply },
  'abandon:claim': { request: AbandonClaimRequest, reply: CommandReply },
  'chat:send': { request: ChatRequest, reply: CommandReply },
} as const satisfies Record<string, { request: z.ZodType<{ roomId: string }>; reply: z.ZodType }>;
export type ClientEvent = keyof typeof CLIENT_EVENTS;
/** @deprecated the same as ClientEvent. */
export type ClientEventName = ClientEvent;

/** Every server event: its payload schema. */
export const SERVER_EVENTS = {
  'room:event': RoomEvent,
  'chat:message': ChatMessage,
  'seat:assigned': SeatAssigned,
} as const satisfies Record<string, z.ZodType>;
export type ServerEvent = keyof typeof SERVER_EVENTS;

type ClientSpec<E extends ClientEvent> = (typeof CLIENT_EVENTS)[E];
/** A client event's payload as a client sends it (before the schema's trimming and the like). */
export type RequestOf<E extends ClientEvent> = z.input<ClientSpec<E>['request']>;
/** A client event's payload as the server's handler gets it, parsed. */
export type ParsedRequestOf<E extends ClientEvent> = z.output<ClientSpec<E>['request']>;
/** A client event's reply on success. */
export type ReplyOf<E extends ClientEvent> = z.output<ClientSpec<E>['reply']>;
/** What a client event's ack is called with. */
export type AckOf<E extends ClientEvent> = ReplyOf<E> | AckError;
/** A server event's payload. */
export type PayloadOf<E extends ServerEvent> = z.output<(typeof SERVER_EVENTS)[E]>;

export type ClientToServerEvents = {
  [E in ClientEvent]: (request: RequestOf<E>, ack: (reply: AckOf<E>) => void) => void;
};
export type ServerToClientEvents = { [E in ServerEvent]: (payload: PayloadOf<E>) => void };

/**
 * The registry seen one event at a time: indexed with a generic event, its schemas stay tied to
 * that event's types (a plain `CLIENT_EVENTS[event]` gives the union of them all).
 */
type ClientRegistry = {
  readonly [E in ClientEvent]: {
    readonly request: z.ZodType<ParsedRequestOf<E>, RequestOf<E>>;
    readonly reply: z.ZodType<ReplyOf<E>>;
  };
};
const REGISTRY: ClientRegistry = CLIENT_EVENTS;

/** Whether `name` is a client event (own keys only: `__proto__` and the like are not). */
export const isClientEvent = (name: unknown): name is ClientEvent =>
  typeof name === 'string' && Object.hasOwn(CLIENT_EVENTS, name);

/** Every client event's name, in the registry's order. */
export const CLIENT_EVENT_NAMES: readonly ClientEvent[] = Object.keys(CLIENT_EVENTS).filter(isClientEvent);

/** Parses a client event's payload with its schema. */
export const parseRequest = <E extends ClientEvent>(
  event: E,
  payload: unknown,
): z.ZodSafeParseResult<ParsedRequestOf<E>> => REGISTRY[event].request.safeParse(payload);
