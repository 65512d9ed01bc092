/**
 * The store behind a circuit breaker (opossum): every call is bounded in time, and while the
 * store keeps failing calls fail at once instead of queueing behind it, so a command's ack,
 * a health check and a timer all get their answer quickly. A trial call now and then finds out
 * whether the store is back; recovery needs no restart. Every failure surfaces as one error
 * type, StoreUnavailableError, which the edges answer with `UNAVAILABLE`.
 */
import CircuitBreaker from 'opossum';
import type { Logger } from 'pino';
import type { RoomStorage } from './types.js';

/** The store could not do what was asked (failed, timed out, or is known to be down): try again later. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

export interface GuardOptions {
  readonly log: Logger;
  /**
   * The longest a store call may take before it counts as failed (default 1000 ms); false for a
   * store that answers within the call on this thread (SQLite): no timer could fire before it
   * returns, and arming one per call costs every move.
   */
  readonly timeoutMs?: number | false;
  /** How long calls fail at once after the store failed, before a trial call (default 1000 ms). */
  readonly retryAfterMs?: number;
}

export interface GuardedStorage extends RoomStorage {
  /** Why the store is failing now, or null while it answers. */
  readonly failure: string | null;
}

type Call = () => Promise<unknown>;

export function guardStorage(storage: RoomStorage, options: GuardOptions): GuardedStorage {
  const { log } = options;
  // When a call last succeeded, in time or not. Failures do not count: the client's own (a pool
  // wait, a refused connection) say nothing of whether the store answers.
  let answeredAt = Number.NEGATIVE_INFINITY;
  const answered = async (call: Call) => {
    const result = await call();
    answeredAt = Date.now();
    return result;
  };
  // Without a timeout (SQLite) no call times out, so when the store answered is never asked:
  // its calls (every move) skip the extra step.
  const run = options.timeoutMs === false ? (call: Call) => call() : answered;
  const breaker = new CircuitBreaker(run, {
    timeout: options.timeoutMs ?? 1000,
    resetTimeout: options.retryAfterMs ?? 1000,
    errorThresholdPercentage: 50,
    volumeThreshold: 1,
    rollingCountTimeout: 10_000,
  });
  let failure: string | null = null;
  let failedCalls = 0;
  breaker.on('failure', (error: unknown) => {
    failedCalls++;
    if (failure === null) log.warn({ err: error }, 'store call failed');
    failure = error instanceof Error ? error.message : String(error);
  });
  breaker.on('success', () => {
    if (failure !== null) log.info({ failedCalls }, 'store answers again');
    failure = null;
    failedCalls = 0;
  });
  breaker.on('open', () => log.warn({ reason: failure }, 'store unavailable: failing fast'));
  /** Runs one store call through the breaker; every failure becomes a StoreUnavailableError. */
  async function guarded<T>(call: () => Promise<T>): Promise<T> {
    const began = Date.now();
    try {
      return (await breaker.fire(call)) as T;
    } catch (error) {
      // A store that answered nothing since a call that timed out began is down: the calls
      // queued behind it fail at once instead of each waiting out its own timeout. One that
      // answered other calls meanwhile is slow, not down (a busy database or node): failing every
      // call for retryAfterMs would turn one slow call into an outage, so the error rate decides.
      const timedOut = error instanceof Error && 'code' in error && error.code === 'ETIMEDOUT';
      if (timedOut && answeredAt < began && !breaker.opened) breaker.open();
      // While the breaker is open the call was not even tried: the reason is the last failure's.
      const skipped = error instanceof Error && 'code' in error && error.code === 'EOPENBREAKER';
      const reason = skipped
        ? (failure ?? 'failing')
        : error instanceof Error
          ? error.message
          : String(error);
      throw new StoreUnavailableError(`the store is unavailable: ${reason}`, { cause: error });
    }
  }

  const {
    currentVersion,
    changesSince,
    indexLive,
    listLive,
  }: Pick<RoomStorage, 'currentVersion' | 'changesSince' | 'indexLive' | 'listLive'> = storage;
  return {
    get failure() {
      return failure;
    },
    createRoom: (record) => guarded(() => storage.createRoom(record)),
    loadRoom: (roomId) => guarded(() => storage.loadRoom(roomId)),
    append: (roomId, expectedVersion, changes, finished) =>
      guarded(() => storage.append(roomId, expectedVersion, changes, finished)),
    archiveGame: (game) => guarded(() => storage.archiveGame(game)),
    loadGame: (roomId) => guarded(() => storage.loadGame(roomId)),
    listGames: (query) => guarded(() => storage.listGames(query)),
    timedRoomsInPlay: (createdSince, limit) => guarded(() => storage.timedRoomsInPlay(createdSince, limit)),
    // The optional parts exist only where the store has them (callers test for them).
    ...(currentVersion
      ? { currentVersion: (roomId: string) => guarded(() => currentVersion.call(storage, roomId)) }
      : {}),
    ...(changesSince
      ? {
          changesSince: (roomId: string, version: number) =>
            guarded(() => changesSince.call(storage, roomId, version)),
        }
      : {}),
    ...(indexLive
      ? {
          indexLive: (...args: Parameters<typeof indexLive>) => guarded(() => indexLive.apply(storage, args)),
        }
      : {}),
    ...(listLive ? { listLive: (limit: number) => guarded(() => listLive.call(storage, limit)) } : {}),
    check: () => guarded(() => storage.check()),
    async close() {
      breaker.shutdown();
      await storage.close();
    },
  };
}
