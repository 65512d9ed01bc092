/**
 * The games against the computer each address has in play on this node. A game counts from the
 * moment its creation is admitted until it has a result or leaves this node's memory (finished,
 * aborted, evicted); `inPlay` tells which rooms still count. A game brought back by its player's
 * join (loaded again after it left memory) counts again, for the joining address.
 */

/** A place taken before the room exists, so concurrent requests cannot all pass the check. */
export interface BotGameSlot {
  /** The room was created: it counts from now on as itself. */
  bind(roomId: string): void;
  /** The room was not created after all. */
  release(): void;
}

export class BotGames {
  readonly limit: number;
  readonly #inPlay: (roomId: string) => boolean;
  /** Address → its rooms (a symbol while a room is being created). */
  readonly #games = new Map<string, Set<string | symbol>>();
  /** The map is swept whole when it grows past this (addresses that never come back). */
  #sweepAt = 1024;

  constructor(limit: number, inPlay: (roomId: string) => boolean) {
    this.limit = limit;
    this.#inPlay = inPlay;
  }

  /** How many games `address` has in play now. */
  count(address: string): number {
    return this.#current(address).size;
  }

  /** A slot for one more game of `address`, or null when it has `limit` in play. */
  reserve(address: string): BotGameSlot | null {
    const games = this.#current(address);
    if (games.size >= this.limit) return null;
    const pending = Symbol(address);
    games.add(pending);
    this.#games.set(address, games);
    if (this.#games.size >= this.#sweepAt) this.#sweep();
    return {
      bind: (roomId) => {
        if (games.delete(pending)) games.add(roomId);
      },
      release: () => {
        games.delete(pending);
        if (games.size === 0 && this.#games.get(address) === games) this.#games.delete(address);
      },
    };
  }

  /**
   * Whether the player of `roomId`, a game in play, may join it from `address`: yes when an
   * address holds it already (back in play, it counts there again), or when it can count for this
   * one now.
   */
  admitJoin(address: string, roomId: string): boolean {
    for (const games of this.#games.values()) if (games.has(roomId)) return true;
    const slot = this.reserve(address);
    slot?.bind(roomId);
    return slot !== null;
  }

  /** The address's set with the games that ended or left this node dropped. */
  #current(address: string): Set<string | symbol> {
    const games = this.#games.get(address) ?? new Set<string | symbol>();
    for (const game of games) if (typeof game === 'string' && !this.#inPlay(game)) games.delete(game);
    if (games.size === 0) this.#games.delete(address);
    return games;
  }

  #sweep(): void {
    for (const address of [...this.#games.keys()]) this.#current(address);
    this.#sweepAt = Math.max(1024, this.#games.size * 2);
  }
}
