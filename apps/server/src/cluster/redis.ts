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
 * What stays per node: the live room cache (checked against the stored version before every
 * command, see Room; a node behind applies the changes it missed) and the sockets themselves.
 * Presence is the cluster's: a command that moves sockets counts the other nodes' sockets of the
 * room (`fetchSockets` over the adapter's request channel, see app.ts) and stores the totals with
 * the room (`presence` changes).
 */
import { createShardedAdapter } from '@socket.io/redis-adapter';
import type { Logger } from 'pino';
import { createClient } from 'redis';

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
  // "dynamic": one channel per room (a socket's own room excepted), subscribed while a socket of
  // this node is in it.
  const adapter = createShardedAdapter(pub, sub, { channelPrefix: 'bagh', subscriptionMode: 'dynamic' });
  log.info({ redis: redactedUrl(url) }, 'several-node mode: Socket.IO adapter and budgets in Redis');
  return {
    adapter,
    client: pub,
    close: async () => {
      await Promise.all([pub, sub].map((client) => (client.isOpen ? client.close() : undefined)));
    },
  };
}

/** The URL without its password, for logs. */
export function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
