/**
 * Several nodes behind one URL (REDIS_URL set): the rooms live in Redis (RedisStorage) and
 * Socket.IO broadcasts travel through the Redis Streams adapter, so a socket on any node gets a
 * room's events in the one order of the stream, and connection-state recovery works from any
 * node (sessions and missed packets are kept in Redis).
 *
 * What stays per node: the live room cache (checked against the stored version before every
 * command, see Room; a node behind applies the changes it missed) and the sockets themselves.
 * Presence is the cluster's: a command that moves sockets counts the other nodes' sockets of the
 * room (`fetchSockets`, see app.ts) and stores the totals with the room (`presence` changes).
 */
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Logger } from 'pino';
import { createClient } from 'redis';
import { openRedisStorage, type RedisStorage } from '../storage/redis.js';

export interface RedisCluster {
  readonly storage: RedisStorage;
  /** For `new Server(http, { adapter })`. */
  readonly adapter: ReturnType<typeof createAdapter>;
  /** The adapter's client (a node-redis client), for short commands too: the adapter reads on a duplicate. */
  readonly client: unknown;
  /** Disconnects the adapter's client; call after io.close(). The storage closes on its own. */
  readonly close: () => Promise<void>;
}

const DAY_MS = 86_400_000;

export async function connectRedisCluster(
  url: string,
  log: Logger,
  roomTtlDays: number,
): Promise<RedisCluster> {
  const onError = (what: string) => (error: Error) =>
    log.warn({ err: error }, `redis ${what}: connection error`);
  const storage = await openRedisStorage(url, {
    onError: onError('storage'),
    roomTtlMs: roomTtlDays * DAY_MS,
  });
  const client = createClient({
    url,
    socket: { reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2000) },
  });
  client.on('error', onError('adapter'));
  try {
    await client.connect();
  } catch (error) {
    await storage.close();
    throw error;
  }
  // The events are JSON only (no binary), which lets the adapter skip its binary checks.
  const adapter = createAdapter(client, { streamName: 'bagh:socket.io', onlyPlaintext: true });
  log.info(
    { redis: redactedUrl(url), roomTtlDays },
    'several-node mode: Redis storage and Socket.IO adapter',
  );
  return {
    storage,
    adapter,
    client,
    close: async () => {
      if (client.isOpen) await client.close();
    },
  };
}

/** The URL without its password, for logs. */
export function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
