/**
 * Several nodes behind one URL (DATABASE_URL and REDIS_URL set): the rooms live in PostgreSQL
 * (the store), and Redis carries only what may be lost: Socket.IO broadcasts through the sharded
 * Redis adapter, the cluster's rate-limit budgets, and the presence queries between nodes. Redis
 * restarted empty loses none of the games.
 *
 * Why the sharded adapter (Redis 7 sharded pub/sub, one channel per room): a node subscribes only
 * to the rooms its sockets are in, so a move costs the two nodes of its players and spectators,
 * whatever the size of the cluster (the Redis Streams adapter handed every event to every node).
 * It has no connection-state recovery; a client that missed events re-joins with `since`.
 *
 * What stays per node: the live room cache (kept current by the changes carried with the room's
 * events, or read from the store first, see Room) and the sockets themselves. A room whose sockets
 * are all on this node (owner-node routing, deploy/nginx.conf) is broadcast here only.
 * Presence is the cluster's: a command that moves sockets counts the other nodes' sockets of the
 * room (`fetchSockets` over the adapter's request channel, see app.ts) and stores the totals with
 * the room (`presence` changes).
 */
import { createShardedAdapter } from '@socket.io/redis-adapter';
import type { Logger } from 'pino';
import { createClient } from 'redis';
import type { Namespace } from 'socket.io';
import { z } from 'zod';
import { localOnly, type Stored, storedWith } from '../rooms/room.js';

export interface RedisCluster {
  /** For `new Server(http, { adapter })`. */
  readonly adapter: ReturnType<typeof createShardedAdapter>;
  /** The publishing client (node-redis), for short commands too (budgets). */
  readonly client: unknown;
  /** Disconnects the adapter's clients; call after io.close(). */
  readonly close: () => Promise<void>;
}

export async function connectRedisCluster(url: string, log: Logger): Promise<RedisCluster> {
  const socket = { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) };
  // Publishing fails at once while Redis is away (no offline queue): a broadcast is then only
  // delivered here and a presence count falls back to the stored one, instead of waiting for Redis.
  const pub = createClient({ url, socket, disableOfflineQueue: true });
  // Subscriptions are queued while away and renewed by the client when Redis is back.
  const sub = pub.duplicate({ disableOfflineQueue: false });
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
  const pending = serializeSubscriptions(sub);
  // "dynamic": one channel per room (a socket's own room excepted), subscribed while a socket of
  // this node is in it.
  const sharded = createShardedAdapter(pub, sub, {
    channelPrefix: CHANNEL_PREFIX,
    subscriptionMode: 'dynamic',
  });
  // Socket.IO calls it with `new`: a function declaration, not an arrow.
  function adapter(nsp: Namespace) {
    const made = sharded(nsp);
    const channelOf = (room: string) => `${CHANNEL_PREFIX}#${nsp.name}#${room}#`;
    subscriptions.set(made, (room) => (sub.isReady ? (pending.get(channelOf(room)) ?? settled) : settled));
    carryStored(made as unknown as ClusterInternals);
    return made;
  }
  log.info({ redis: redactedUrl(url) }, 'several-node mode: Socket.IO adapter and budgets in Redis');
  return {
    adapter: adapter as ReturnType<typeof createShardedAdapter>,
    client: pub,
    close: async () => {
      await Promise.all([pub, sub].map((client) => (client.isOpen ? client.close() : undefined)));
    },
  };
}

const CHANNEL_PREFIX = 'bagh';

/** The longest a join waits for its room's subscription (Redis slow or away: the re-join recovers). */
const SUBSCRIBE_WAIT_MS = 2000;

const settled: Promise<void> = Promise.resolve();

/** Per adapter: the subscription under way of a room's channel (settled when there is none). */
const subscriptions = new WeakMap<object, (room: string) => Promise<void>>();

/**
 * The adapter subscribes to a room's channel when the room's first local socket joins, without
 * waiting: until Redis has confirmed it, the room's events published by the other nodes are not
 * heard here. Resolves once it is confirmed or failed (true), or after SUBSCRIBE_WAIT_MS (false);
 * at once for a room already heard and for an adapter without channels per room (one node).
 */
export async function roomSubscribed(adapter: object, room: string): Promise<boolean> {
  const pending = subscriptions.get(adapter)?.(room);
  if (pending === undefined || pending === settled) return true;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      pending.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), SUBSCRIBE_WAIT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the subscribe and unsubscribe commands of one channel one after the other, and keeps the
 * latest one under way by channel (for `roomSubscribed`). node-redis takes a channel whose
 * SUNSUBSCRIBE is still unanswered for subscribed (and forgets it when the answer comes), and
 * one whose SSUBSCRIBE is unanswered as unsubscribed: a room whose last socket here left just as
 * another joined would stay deaf here. A failure is logged by the client; the adapter never
 * awaits these.
 */
function serializeSubscriptions(sub: {
  sSubscribe: Subscribe;
  sUnsubscribe: Unsubscribe;
}): Map<string, Promise<void>> {
  const pending = new Map<string, Promise<void>>();
  const inTurn = (channels: string | string[], command: () => Promise<void>): Promise<void> => {
    const list = typeof channels === 'string' ? [channels] : channels;
    const before = list.map((channel) => pending.get(channel)).filter((p) => p !== undefined);
    const done = (before.length === 0 ? command() : Promise.all(before).then(command)).then(
      () => undefined,
      () => undefined,
    );
    for (const channel of list) {
      pending.set(channel, done);
      void done.then(() => {
        if (pending.get(channel) === done) pending.delete(channel);
      });
    }
    return done;
  };
  const subscribe = sub.sSubscribe.bind(sub);
  const unsubscribe = sub.sUnsubscribe.bind(sub);
  sub.sSubscribe = ((channels, listener, bufferMode) =>
    inTurn(channels, () => subscribe(channels, listener, bufferMode))) as Subscribe;
  sub.sUnsubscribe = ((channels, listener, bufferMode) =>
    channels === undefined
      ? unsubscribe(channels, listener, bufferMode)
      : inTurn(channels, () => unsubscribe(channels, listener, bufferMode))) as Unsubscribe;
  return pending;
}

type Subscribe = (channels: string | string[], listener: never, bufferMode?: boolean) => Promise<void>;
type Unsubscribe = (channels?: string | string[], listener?: never, bufferMode?: boolean) => Promise<void>;

/** What a node does with the changes another node stored (see Room.feed). */
const hearers = new WeakMap<object, (stored: Stored) => void>();

/** With several nodes: `hear` gets the changes the other nodes store, with their rooms' events. */
export function hearStored(adapter: object, hear: (stored: Stored) => void): void {
  hearers.set(adapter, hear);
}

/** The cluster adapter's message hooks (socket.io-adapter's ClusterAdapter, not in its types). */
interface ClusterInternals {
  readonly uid: string;
  broadcast(packet: { data?: unknown[] }, opts: { flags?: { local?: boolean } }): Promise<void>;
  doPublish(message: ClusterMessage): Promise<string>;
  onMessage(message: ClusterMessage, offset?: string): unknown;
}
interface ClusterMessage {
  uid?: string;
  type: number;
  data?: { packet?: { data?: unknown[] }; stored?: unknown };
}

/** socket.io-adapter's MessageType.BROADCAST. */
const BROADCAST = 3;

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

/**
 * A room event's broadcast carries the changes its command stored (Room's `storedWith`) in the
 * same Redis message: the nodes that hear the room apply them to their cached room, and judge
 * their next command without reading the store first. The node's own messages are not fed back.
 */
function carryStored(adapter: ClusterInternals): void {
  // A room whose sockets are all here (Room's `localOnly`): delivered as `io.local` would, no
  // publish (and the broadcast does not wait for Redis's reply before the local sockets get it).
  const broadcast = adapter.broadcast.bind(adapter);
  adapter.broadcast = (packet, opts) => {
    const event = packet.data?.[1];
    const local = typeof event === 'object' && event !== null && localOnly.has(event as never);
    return broadcast(packet, local ? { ...opts, flags: { ...opts.flags, local: true } } : opts);
  };
  const publish = adapter.doPublish.bind(adapter);
  adapter.doPublish = (message) => {
    const event = message.type === BROADCAST ? message.data?.packet?.data?.[1] : undefined;
    const stored = typeof event === 'object' && event !== null ? storedWith.get(event as never) : undefined;
    if (stored && message.data) message.data.stored = stored;
    return publish(message);
  };
  const receive = adapter.onMessage.bind(adapter);
  adapter.onMessage = (message, offset) => {
    const stored = message.uid !== adapter.uid ? message.data?.stored : undefined;
    if (stored !== undefined) {
      const parsed = StoredMessage.safeParse(stored);
      if (parsed.success) hearers.get(adapter)?.(parsed.data);
    }
    return receive(message, offset);
  };
}

/** The URL without its password, for logs. */
export function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
