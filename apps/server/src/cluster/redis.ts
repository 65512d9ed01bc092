/**
 * Several nodes behind one URL (DATABASE_URL and REDIS_URL set): the rooms live in PostgreSQL
 * (the store), and Redis carries only what may be lost: Socket.IO broadcasts through the Redis
 * Streams adapter (a socket on any node gets a room's events in the one order of the stream, and
 * connection-state recovery works from any node), the cluster's rate-limit budgets, and the
 * presence queries between nodes. Redis restarted empty loses none of the games.
 *
 * What stays per node: the live room cache (checked against the stored version before every
 * command, see Room; a node behind applies the changes it missed) and the sockets themselves.
 * Presence is the cluster's: a command that moves sockets counts the other nodes' sockets of the
 * room (`fetchSockets`, see app.ts) and stores the totals with the room (`presence` changes).
 */
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Logger } from 'pino';
import { createClient } from 'redis';

export interface RedisCluster {
  /** For `new Server(http, { adapter })`. */
  readonly adapter: ReturnType<typeof createAdapter>;
  /** The adapter's client (a node-redis client), for short commands too: the adapter reads on a duplicate. */
  readonly client: unknown;
  /** Disconnects the adapter's client; call after io.close(). */
  readonly close: () => Promise<void>;
}

export async function connectRedisCluster(url: string, log: Logger): Promise<RedisCluster> {
  const client = createClient({
    url,
    socket: { reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2000) },
  });
  client.on('error', (error: Error) => log.warn({ err: error }, 'redis adapter: connection error'));
  await client.connect();
  // The events are JSON only (no binary), which lets the adapter skip its binary checks.
  const adapter = createAdapter(client, { streamName: 'bagh:socket.io', onlyPlaintext: true });
  log.info({ redis: redactedUrl(url) }, 'several-node mode: Socket.IO adapter and budgets in Redis');
  return {
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
