/**
 * A budget of points per key per window (rate-limiter-flexible, fixed windows): in this process,
 * or, given a Redis client, in Redis, so that every node of a cluster counts against one budget.
 */
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';

/** How long a budget waits for Redis before counting in memory instead (a frozen Redis never answers). */
const REDIS_TIMEOUT_MS = 300;

export interface BudgetSpec {
  /** What a key may spend per window. */
  readonly points: number;
  /** The window, in whole seconds (Redis expires keys by the second). */
  readonly durationMs: number;
}

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number };

export class Budget {
  readonly spec: BudgetSpec;
  readonly #limiter: RateLimiterAbstract;

  /** `redis`: a connected node-redis client; the budget then holds across nodes. */
  constructor(name: string, spec: BudgetSpec, redis?: unknown) {
    if (spec.durationMs < 1000 || spec.durationMs % 1000 !== 0) {
      throw new Error(`budget ${name}: the window must be whole seconds, not ${spec.durationMs} ms`);
    }
    this.spec = spec;
    const options = {
      keyPrefix: `bagh:limit:${name}`,
      points: spec.points,
      duration: spec.durationMs / 1000,
    };
    // Redis away, failing or slow: each node counts on its own meanwhile instead of refusing
    // everyone or keeping the command waiting.
    this.#limiter = redis
      ? new RLWrapperTimeouts({
          limiter: new RateLimiterRedis({
            ...options,
            storeClient: redis,
            useRedisPackage: true,
            rejectIfRedisNotReady: true,
          }),
          timeoutMs: REDIS_TIMEOUT_MS,
          insuranceLimiter: new RateLimiterMemory(options),
        })
      : new RateLimiterMemory(options);
  }

  /** Spends one point of `key`'s budget, or says how long until the window turns. */
  async take(key: string): Promise<Verdict> {
    try {
      await this.#limiter.consume(key);
      return { ok: true };
    } catch (error) {
      if (error instanceof RateLimiterRes) return { ok: false, retryAfterMs: error.msBeforeNext };
      throw error;
    }
  }
}
