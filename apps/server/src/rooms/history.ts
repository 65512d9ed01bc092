/** The last N events of a room, to replay a short gap to a client that re-joins with `since`. */
import type { RoomEvent } from '@bagh/protocol';

export class EventHistory {
  readonly #capacity: number;
  #events: RoomEvent[] = [];

  constructor(capacity: number) {
    this.#capacity = Math.max(0, capacity);
  }

  push(event: RoomEvent): void {
    if (this.#capacity === 0) return;
    this.#events.push(event);
    if (this.#events.length > this.#capacity) this.#events.splice(0, this.#events.length - this.#capacity);
  }

  /**
   * The events after `since`, up to `current`, when they form a contiguous run held here;
   * null when some are gone (the client then relies on the snapshot alone).
   */
  since(since: number, current: number): RoomEvent[] | null {
    if (since === current) return [];
    if (since > current) return null;
    const first = this.#events[0];
    if (!first || first.version > since + 1) return null;
    const out = this.#events.filter((event) => event.version > since);
    const contiguous = out.every((event, i) => event.version === since + 1 + i);
    return contiguous && out.length === current - since ? out : null;
  }

  get size(): number {
    return this.#events.length;
  }
}
