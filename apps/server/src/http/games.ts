/** `GET /api/games`: the archive of finished games, newest first, a page at a time. */
import { GamesQuery, type GamesReply } from '@bagh/protocol';
import type { FastifyInstance } from 'fastify';
import type { AddressOf } from '../limits/address.js';
import type { Budget } from '../limits/budget.js';
import { gameViewOf } from '../rooms/archive.js';
import type { GameQuery, GameSummary, RoomStorage } from '../storage/types.js';
import { parse } from './api.js';
import { HttpError } from './errors.js';

export interface GamesOptions {
  readonly storage: Pick<RoomStorage, 'listGames'>;
  readonly addressOf: AddressOf;
  /** Listings per address per window (each is a query of the store). */
  readonly budget: Budget;
  readonly onLimited?: () => void;
}

/** The cursor after `game`: where the next page starts (the keyset, ties broken by room id). */
const cursorOf = (game: GameSummary): string => `${game.finishedAt}.${game.roomId}`;

function keyOf(cursor: string): NonNullable<GameQuery['before']> {
  const dot = cursor.indexOf('.');
  return { finishedAt: Number(cursor.slice(0, dot)), roomId: cursor.slice(dot + 1) };
}

const LISTING_PARAMETERS = Object.keys(GamesQuery.shape);

/** A parameter of the listing given empty (`?variant=&limit=`) is one not given; an unknown one is refused all the same. */
function withoutEmpty(query: unknown): unknown {
  if (typeof query !== 'object' || query === null) return query;
  return Object.fromEntries(
    Object.entries(query).filter(([key, value]) => value !== '' || !LISTING_PARAMETERS.includes(key)),
  );
}

export async function gamesRoutes(fastify: FastifyInstance, opts: GamesOptions): Promise<void> {
  fastify.get('/api/games', async (request, reply) => {
    const query = parse(GamesQuery, withoutEmpty(request.query), 'games query');
    const verdict = await opts.budget.take(opts.addressOf(request.raw.socket.remoteAddress, request.headers));
    if (!verdict.ok) {
      opts.onLimited?.();
      throw new HttpError(429, 'RATE_LIMITED', 'too many listings; wait a moment', verdict.retryAfterMs);
    }
    // One more than the page: whether a next page exists, without a query that finds it empty.
    const found = await opts.storage.listGames({
      variant: query.variant,
      result: query.result,
      before: query.before === undefined ? undefined : keyOf(query.before),
      limit: query.limit + 1,
    });
    const page = found.slice(0, query.limit);
    const last = page[page.length - 1];
    const body: GamesReply = {
      games: page.map(gameViewOf),
      ...(found.length > query.limit && last ? { next: cursorOf(last) } : {}),
    };
    return reply.header('cache-control', 'no-store').send(body);
  });
}
