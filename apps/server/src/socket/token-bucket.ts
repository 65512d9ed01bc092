/** A token bucket: `burst` tokens, refilled at `refillPerSecond`; one event costs one token. */
export interface RateLimit {
  readonly refillPerSecond: number;
  readonly burst: number;
}

export class TokenBucket {
  readonly #limit: RateLimit;
  #tokens: number;
  #at: number;

  constructor(limit: RateLimit, now: number) {
    this.#limit = limit;
    this.#tokens = limit.burst;
    this.#at = now;
  }

  /** Takes a token at time `now` (ms); false when the bucket is empty. */
  take(now: number): boolean {
    const elapsed = Math.max(0, now - this.#at) / 1000;
    this.#tokens = Math.min(this.#limit.burst, this.#tokens + elapsed * this.#limit.refillPerSecond);
    this.#at = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
