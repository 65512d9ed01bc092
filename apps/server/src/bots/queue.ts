/**
 * The bot pool's waiting requests, fair across rooms: at most one per room (a newer request
 * replaces the room's older one and keeps its place), served earliest due first, a request being
 * due PATIENCE times its level's budget after it was first queued.
 *
 * Rooms at one level are served in turn (round-robin). Across levels the wait scales with the
 * search asked for: a beginner's move (400 ms budget) goes before max searches (5.5 s) queued less
 * than (5500 − 400) × PATIENCE ms earlier, instead of behind every one of them. A due never moves,
 * so no request waits forever behind quicker ones.
 */
export const PATIENCE = 10;

interface Entry<T> {
  readonly item: T;
  readonly queuedAt: number;
  readonly due: number;
}

export class FairQueue<T> {
  readonly #entries = new Map<string, Entry<T>>();

  get size(): number {
    return this.#entries.size;
  }

  /** Queues `item` for `key` at `now` (ms); returns the item it replaced, if any. */
  put(key: string, item: T, budgetMs: number, now: number): T | undefined {
    const old = this.#entries.get(key);
    const queuedAt = old?.queuedAt ?? now;
    this.#entries.set(key, { item, queuedAt, due: queuedAt + budgetMs * PATIENCE });
    return old?.item;
  }

  /** The item due first (the first queued among equals), removed from the queue. */
  take(): T | undefined {
    let first: [string, Entry<T>] | undefined;
    for (const entry of this.#entries) if (!first || entry[1].due < first[1].due) first = entry;
    if (!first) return undefined;
    this.#entries.delete(first[0]);
    return first[1].item;
  }

  /** Removes `item` if it is still queued for `key`; whether it was. */
  remove(key: string, item: T): boolean {
    if (this.#entries.get(key)?.item !== item) return false;
    return this.#entries.delete(key);
  }

  /** Empties the queue, returning what was in it. */
  clear(): T[] {
    const items = [...this.#entries.values()].map((entry) => entry.item);
    this.#entries.clear();
    return items;
  }
}
