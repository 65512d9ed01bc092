/**
 * Who may create a room now: one budget per address for every way a room is made (POST
 * /api/rooms, POST /api/records, a rematch), and a cap on the games against the computer an
 * address has in play.
 */
import type { BotGames } from './bot-games.js';
import type { Budget } from './budget.js';

/** The limits a room creation can run into (the label of `bagh_limited_total`). */
export type RoomLimit = 'rooms' | 'bot-games';

export type Admission =
  | {
      readonly ok: true;
      /** Call with the new room's id once it exists. */
      readonly created: (roomId: string) => void;
      /** Call when the room could not be created after all. */
      readonly cancel: () => void;
    }
  | {
      readonly ok: false;
      readonly message: string;
      /** When another try may pass (the budget's window turns); absent for the bot-games cap. */
      readonly retryAfterMs?: number;
    };

export class RoomLimits {
  readonly #budget: Budget;
  readonly #botGames: BotGames;
  readonly #onRefused: (limit: RoomLimit) => void;

  /** `onRefused`: told of every refusal, by limit (for the metrics). */
  constructor(budget: Budget, botGames: BotGames, onRefused: (limit: RoomLimit) => void = () => {}) {
    this.#budget = budget;
    this.#botGames = botGames;
    this.#onRefused = onRefused;
  }

  /**
   * The player of a game against the computer in play joins it from `address`: null when it may,
   * else why not (the game would be one more than the cap, e.g. brought back after it left memory).
   */
  admitBotGameJoin(address: string, roomId: string): string | null {
    if (this.#botGames.admitJoin(address, roomId)) return null;
    this.#onRefused('bot-games');
    return this.#botGamesFull();
  }

  #botGamesFull(): string {
    return `at most ${this.#botGames.limit} games against the computer at once from one address: finish or resign one first`;
  }

  /** Admits one room for `address` (a room against the computer if `againstBot`), or says why not. */
  async admit(address: string, againstBot: boolean): Promise<Admission> {
    const slot = againstBot ? this.#botGames.reserve(address) : undefined;
    if (slot === null) {
      this.#onRefused('bot-games');
      return {
        ok: false,
        message: this.#botGamesFull(),
      };
    }
    const verdict = await this.#budget.take(address).catch((error: unknown) => {
      slot?.release();
      throw error;
    });
    if (!verdict.ok) {
      slot?.release();
      this.#onRefused('rooms');
      const perMinute = (this.#budget.spec.points * 60_000) / this.#budget.spec.durationMs;
      return {
        ok: false,
        message: `at most ${perMinute} new rooms per minute from one address (rematches and imports count too); try again in ${Math.ceil(verdict.retryAfterMs / 1000)} s`,
        retryAfterMs: verdict.retryAfterMs,
      };
    }
    return { ok: true, created: (roomId) => slot?.bind(roomId), cancel: () => slot?.release() };
  }
}
