/**
 * Several nodes behind one URL (DATABASE_URL and REDIS_URL set): the rooms live in PostgreSQL
 * (the store), and Redis carries only what may be lost: Socket.IO broadcasts through the room
 * channel adapter below, the cluster's rate-limit budgets, and the presence queries between
 * nodes. Redis restarted empty loses none of the games.
 *
 * Why one channel per room (Redis 7 sharded pub/sub, the protocol of `@socket.io/redis-adapter`'s
 * sharded adapter in "dynamic" mode): a node subscribes only to the rooms its sockets are in, so a
 * move costs the two nodes of its players and spectators, whatever the size of the cluster (the
 * Redis Streams adapter handed every event to every node). It has no connection-state recovery;
 * a client that missed events re-joins with `since`.
 *
 * What stays per node: the live room cache (kept current by the changes carried with the room's
 * events, or read from the store first, see Room) and the sockets themselves. A room whose sockets
 * are all on this node (owner-node routing, deploy/nginx.conf) is broadcast here only.
 * Presence is the cluster's: a command that moves sockets counts the other nodes' sockets of the
 * room (`fetchSockets` over the adapter's request channel, see app.ts) and stores the totals with
 * the room (`presence` changes).
 */

import type { RoomEvent } from '@bagh/protocol';
import type { Logger } from 'pino';
import { createClient } from 'redis';
import type { Namespace } from 'socket.io';
import {
  type Adapter,
  type BroadcastOptions,
  ClusterAdapter,
  type ClusterMessage,
  type ClusterResponse,
  MessageType,
} from 'socket.io-adapter';
import { z } from 'zod';
import type { ClusterMembers } from '../rooms/manager.js';
import { localOnly, type Stored, storedWith } from '../rooms/room.js';

type RedisClient = ReturnType<typeof createClient>;

export interface RedisCluster {
  /** For `new Server(http, { adapter })`: Socket.IO calls it with `new`, once per namespace. */
  readonly adapter: typeof Adapter;
  /** The publishing client (node-redis), for short commands too (budgets). */
  readonly client: unknown;
  /** Disconnects the adapter's clients; call after io.close(). */
  readonly close: () => Promise<void>;
}

export async function connectRedisCluster(url: string, log: Logger): Promise<RedisCluster> {
  const socket = { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) };
  // Publishing fails at once while Redis is away (no offline queue): a broadcast is then only
  // delivered here and a presence count falls back to the stored one, instead of waiting for Redis.
  const pub: RedisClient = createClient({ url, socket, disableOfflineQueue: true });
  // Subscriptions are queued while away and renewed by the client when Redis is back.
  const sub: RedisClient = pub.duplicate({ disableOfflineQueue: false });
  for (const [name, client] of [
    ['publish', pub],
    ['subscribe', sub],
  ] as const) {
    client.on('error', (error: Error) =>
      log.warn({ err: error, client: name }, 'redis adapter: connection error'),
    );
  }
  await Promise.all([pub.connect(), sub.connect()]);
  const version = /redis_version:(\d+)/.exec(await pub.info('server'))?.[1];
  if (version === undefined || Number(version) < 7) {
    await Promise.all([pub.close(), sub.close()]);
    throw new Error(
      `REDIS_URL: Redis 7 or later is needed (sharded pub/sub), this one is ${version ?? 'unknown'}`,
    );
  }
  // This node's start, counted (see RoomChannelAdapter.members); uncounted, a crash and restart
  // of this node within a look goes unseen, as before the counter.
  await pub
    .incr(STARTS_KEY)
    .catch((error: unknown) => log.warn({ err: error }, 'redis adapter: start not counted'));
  const channels = new ChannelSubscriptions(sub, log);
  log.info({ redis: redactedUrl(url) }, 'several-node mode: Socket.IO adapter and budgets in Redis');
  return {
    adapter: class extends RoomChannelAdapter {
      constructor(nsp: Namespace) {
        super(nsp, pub, channels);
      }
    },
    client: pub,
    close: async () => {
      // A stop counted: the other nodes see a node fewer that they need not look for.
      if (pub.isReady) await pub.incr(STOPS_KEY).catch(() => undefined);
      await Promise.all([pub, sub].map((client) => (client.isOpen ? client.close() : undefined)));
    },
  };
}

const CHANNEL_PREFIX = 'bagh';

/** How many nodes have started, each adding one as it connects, and stopped gracefully. */
const STARTS_KEY = `${CHANNEL_PREFIX}#starts`;
const STOPS_KEY = `${CHANNEL_PREFIX}#stops`;

/** The longest a join waits for its room's subscription (Redis slow or away: the re-join recovers). */
const SUBSCRIBE_WAIT_MS = 2000;

type Listener = (message: Buffer, channel: Buffer) => void;

/**
 * The subscribing client's channels. The subscribe and unsubscribe commands of one channel run one
 * after the other, and the latest one under way is kept by channel (for `subscribed`): node-redis
 * takes a channel whose SUNSUBSCRIBE is still unanswered for subscribed (and forgets it when the
 * answer comes), and one whose SSUBSCRIBE is unanswered as unsubscribed: a room whose last socket
 * here left just as another joined would stay deaf here. A command cut off by a lost connection is
 * sent again while it is still wanted (node-redis renews only the subscriptions it had confirmed,
 * and holds the new command until Redis is back).
 */
class ChannelSubscriptions {
  readonly #pending = new Map<string, Promise<boolean>>();

  constructor(
    readonly client: RedisClient,
    readonly log: Logger,
  ) {}

  /** Resolves true once subscribed, false if it was given up (no longer wanted, or failing). */
  subscribe(channel: string, listener: Listener, wanted: () => boolean): Promise<boolean> {
    return this.#inTurn(channel, wanted, () => this.client.sSubscribe(channel, listener, true));
  }

  unsubscribe(channel: string, wanted: () => boolean): Promise<boolean> {
    return this.#inTurn(channel, wanted, () => this.client.sUnsubscribe(channel));
  }

  /** The command under way on the channel; none (undefined) while the client is not connected. */
  underWay(channel: string): Promise<boolean> | undefined {
    return this.client.isReady ? this.#pending.get(channel) : undefined;
  }

  #inTurn(channel: string, wanted: () => boolean, command: () => Promise<void>): Promise<boolean> {
    const before = this.#pending.get(channel);
    const done = (before ?? Promise.resolve()).then(() => this.#untilDone(channel, wanted, command));
    this.#pending.set(channel, done);
    void done.then(() => {
      if (this.#pending.get(channel) === done) this.#pending.delete(channel);
    });
    return done;
  }

  async #untilDone(channel: string, wanted: () => boolean, command: () => Promise<void>): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      if (!wanted() || !this.client.isOpen) return false;
      try {
        await command();
        return true;
      } catch (error) {
        if (attempt >= MAX_CHANNEL_ATTEMPTS) {
          this.log.warn({ err: error, channel }, 'redis adapter: gave up (un)subscribing a channel');
          return false;
        }
      }
    }
  }
}

/** Each a lost connection's worth (commands wait offline for Redis, they are not refused). */
const MAX_CHANNEL_ATTEMPTS = 10;

/** The stored changes carried by a broadcast, as another node sent them (outside input). */
const StoredMessage = z.object({
  roomId: z.string().min(1),
  from: z.number().int().nonnegative(),
  version: z.number().int().positive(),
  changes: z.array(
    z.object({
      version: z.number().int().positive(),
      kind: z.string(),
      data: z.record(z.string(), z.unknown()).nullable(),
    }),
  ),
});

/** `PUBSUB SHARDNUMSUB channel`'s reply. */
const ShardNumSub = z.tuple([z.unknown(), z.coerce.number().int().nonnegative()]);

/** A Socket.IO packet as the adapter gets it: an event's packet has [name, payload] as data. */
interface Packet {
  data?: unknown;
}

/**
 * Socket.IO's cluster adapter over Redis sharded pub/sub, one channel per room: `bagh#/#` for
 * the cluster's requests, `bagh#/#<uid>#` for the answers to this node, `bagh#/#<room>#` for a
 * room's broadcasts, subscribed while a socket of this node is in the room (a socket's own room
 * excepted). On top of the protocol:
 * - a room event's message carries the changes its command stored (Room's `storedWith`): the
 *   nodes that hear the room apply them to their cached room (`hear`, Room.feed), and judge their
 *   next command without reading the store first;
 * - a room whose sockets are all here (Room's `localOnly`) is delivered as `io.local` would: no
 *   publish, and the local sockets do not wait for Redis's reply;
 * - a join can wait until its room's channel is subscribed (`subscribed`).
 * The messages are JSON (Bagh sends no binary), this node's uid first: Redis sends a node's own
 * messages back to it, and they are dropped on their first bytes, not parsed.
 */
export class RoomChannelAdapter extends ClusterAdapter {
  /** What this node does with the changes another node stored (see Room.feed). */
  hear: ((stored: Stored) => void) | undefined;

  readonly #pub: RedisClient;
  readonly #channels: ChannelSubscriptions;
  readonly #requestChannel: string;
  readonly #responseChannel: string;
  /** How this node's own messages begin: `{"uid":"<uid>",`. */
  readonly #ownPrefix: Buffer;
  readonly #listener: Listener = (message, channel) => this.#receive(message, channel);
  #closed = false;

  constructor(nsp: Namespace, pub: RedisClient, channels: ChannelSubscriptions) {
    super(nsp);
    this.#pub = pub;
    this.#channels = channels;
    this.#requestChannel = `${CHANNEL_PREFIX}#${nsp.name}#`;
    this.#responseChannel = `${this.#requestChannel}${this.uid}#`;
    this.#ownPrefix = Buffer.from(`{"uid":${JSON.stringify(this.uid)},`);
    const open = () => !this.#closed;
    void channels.subscribe(this.#requestChannel, this.#listener, open);
    void channels.subscribe(this.#responseChannel, this.#listener, open);
    this.on('create-room', (room: string) => {
      if (!this.#hasChannel(room)) return;
      void channels.subscribe(this.#roomChannel(room), this.#listener, () => open() && this.rooms.has(room));
    });
    this.on('delete-room', (room: string) => {
      if (this.#hasChannel(room))
        void channels.unsubscribe(this.#roomChannel(room), () => !this.rooms.has(room));
    });
  }

  /**
   * The adapter subscribes to a room's channel when the room's first local socket joins, without
   * waiting: until Redis has confirmed it, the room's events published by the other nodes are not
   * heard here. Resolves true once it is confirmed (at once for a room already heard), false when
   * it was given up or after SUBSCRIBE_WAIT_MS.
   */
  async subscribed(room: string): Promise<boolean> {
    const pending = this.#channels.underWay(this.#roomChannel(room));
    if (pending === undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        pending,
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), SUBSCRIBE_WAIT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * This node's sockets get the packet at once, then it is published: the cluster adapter would
   * deliver here only once Redis answered the publish, by when a later event of the room, made on
   * another node after this one's ack, may have come back through Redis first (a spectator here
   * saw v14 before v13). A room event Room marks localOnly is not published at all.
   */
  override async broadcast(packet: Packet, opts: BroadcastOptions): Promise<void> {
    const event = roomEventOf(packet);
    const here = super.broadcast(packet, { ...opts, flags: { ...opts.flags, local: true } });
    if (opts.flags?.local || (event !== undefined && localOnly.has(event))) return here;
    try {
      await this.publishAndReturnOffset({
        type: MessageType.BROADCAST,
        data: {
          packet,
          opts: {
            rooms: [...opts.rooms],
            except: [...(opts.except ?? [])],
            flags: opts.flags ?? {},
          },
        },
      });
    } catch (error) {
      // As the cluster adapter did: while Redis is away a broadcast reaches this node only.
      this.#channels.log.debug({ err: error }, 'redis adapter: a broadcast could not be published');
    }
  }

  /**
   * `resync` runs once Redis is back after one of this node's connections to it was lost (what was
   * published meanwhile was lost: a publish failed, or nobody heard it), after RESYNC_DELAY_MS, by
   * when node-redis has subscribed this node's channels again.
   */
  whenBack(resync: () => void): void {
    for (const client of [this.#channels.client, this.#pub]) {
      let lost = false;
      const gone = () => {
        lost = true;
      };
      client.on('error', gone);
      client.on('reconnecting', gone);
      client.on('ready', () => {
        if (!lost) return;
        lost = false;
        this.#channels.log.info('redis adapter: Redis is back; the rooms catch up from the store');
        setTimeout(resync, RESYNC_DELAY_MS).unref();
      });
    }
  }

  override async serverCount(): Promise<number> {
    const reply = await this.#pub.sendCommand(['PUBSUB', 'SHARDNUMSUB', this.#requestChannel]);
    return ShardNumSub.parse(reply)[1];
  }

  /** The nodes alive now, and how many have started and stopped gracefully. */
  async members(): Promise<ClusterMembers> {
    // This node counts itself (at start its own subscription may still be under way).
    await this.#channels.underWay(this.#requestChannel);
    const [nodes, [starts, stops]] = await Promise.all([
      this.serverCount(),
      this.#pub.mGet([STARTS_KEY, STOPS_KEY]),
    ]);
    return { nodes, starts: Number(starts ?? 0), stops: Number(stops ?? 0) };
  }

  override async close(): Promise<void> {
    this.#closed = true;
    const rooms = [...this.rooms.keys()].filter((room) => this.#hasChannel(room));
    await Promise.all(
      [this.#requestChannel, this.#responseChannel, ...rooms.map((room) => this.#roomChannel(room))].map(
        (channel) => this.#channels.unsubscribe(channel, () => true),
      ),
    );
  }

  protected override async doPublish(message: ClusterMessage): Promise<string> {
    await this.#pub.sPublish(this.#channelOf(message), this.#encode(message));
    return '';
  }

  protected override async doPublishResponse(requesterUid: string, response: ClusterResponse): Promise<void> {
    await this.#pub.sPublish(`${this.#requestChannel}${requesterUid}#`, this.#encode(response));
  }

  /** A broadcast to one room (no acknowledgement awaited) goes on the room's channel. */
  #channelOf(message: ClusterMessage): string {
    if (message.type !== MessageType.BROADCAST || message.data.requestId !== undefined) {
      return this.#requestChannel;
    }
    const [room, ...others] = message.data.opts.rooms;
    return room !== undefined && others.length === 0 && !looksLikeASocketId(room)
      ? this.#roomChannel(room)
      : this.#requestChannel;
  }

  #roomChannel(room: string): string {
    return `${this.#requestChannel}${room}#`;
  }

  /** A socket's own room has no channel (its socket id is ephemeral, and rooms of one are many). */
  #hasChannel(room: string): boolean {
    return !this.sids.has(room);
  }

  /** The uid first (see #ownPrefix); a room event's broadcast with the changes its command stored. */
  #encode(message: ClusterMessage | ClusterResponse): string {
    const { uid, nsp, type } = message;
    const data = 'data' in message ? message.data : undefined;
    const event = type === MessageType.BROADCAST ? roomEventOf(message.data.packet as Packet) : undefined;
    const stored = event && storedWith.get(event);
    return JSON.stringify({ uid, nsp, type, data: stored === undefined ? data : { ...data, stored } });
  }

  #receive(raw: Buffer, channel: Buffer): void {
    const own = this.#ownPrefix;
    if (raw.length > own.length && raw.compare(own, 0, own.length, 0, own.length) === 0) return;
    let message: ClusterMessage | ClusterResponse;
    try {
      // The cluster's own traffic, trusted as Socket.IO's adapters trust it; what feeds the room
      // cache (`stored`) is checked below.
      message = JSON.parse(raw.toString());
    } catch {
      return;
    }
    // Nothing may throw into node-redis's reader: it would drop the rest of what it had read (the
    // next messages too). A message of another shape (a parsed `null`, a field missing) stops here.
    try {
      if (channel.toString() === this.#responseChannel) {
        this.onResponse(message as ClusterResponse);
        return;
      }
      if (message.type === MessageType.BROADCAST && isObject(message.data) && 'stored' in message.data) {
        const stored = StoredMessage.safeParse(message.data.stored);
        if (stored.success) this.hear?.(stored.data);
      }
      this.onMessage(message as ClusterMessage);
    } catch (error) {
      this.#channels.log.warn(
        { err: error, channel: channel.toString() },
        'redis adapter: a message could not be handled',
      );
    }
  }
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Socket.IO's socket ids are 20 characters long (the sharded adapter's test, kept as is). */
function looksLikeASocketId(room: string): boolean {
  return room.length === 20;
}

/** A packet's payload, looked up by identity in Room's `localOnly` and `storedWith`. */
function roomEventOf(packet: Packet): RoomEvent | undefined {
  const payload = Array.isArray(packet.data) ? packet.data[1] : undefined;
  return typeof payload === 'object' && payload !== null ? (payload as RoomEvent) : undefined;
}

/** See RoomChannelAdapter.subscribed; at once for an adapter without channels per room (one node). */
export function roomSubscribed(adapter: object, room: string): Promise<boolean> {
  return adapter instanceof RoomChannelAdapter ? adapter.subscribed(room) : Promise.resolve(true);
}

/** With several nodes: `hear` gets the changes the other nodes store, with their rooms' events. */
export function hearStored(adapter: object, hear: (stored: Stored) => void): void {
  if (adapter instanceof RoomChannelAdapter) adapter.hear = hear;
}

/** With several nodes: see RoomChannelAdapter.members. */
export function clusterMembers(adapter: object): Promise<ClusterMembers> {
  return adapter instanceof RoomChannelAdapter
    ? adapter.members()
    : Promise.reject(new Error('one node: no cluster to look at'));
}

/** With several nodes: see RoomChannelAdapter.whenBack. */
export function onRedisBack(adapter: object, resync: () => void): void {
  if (adapter instanceof RoomChannelAdapter) adapter.whenBack(resync);
}

/** See RoomChannelAdapter.whenBack. */
const RESYNC_DELAY_MS = 1000;

/** The URL without its password, for logs. */
export function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
