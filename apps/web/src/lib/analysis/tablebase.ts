/**
 * The sliding-phase tablebase's verdict on a replayed Bagh Chal position (`GET /api/tablebase`),
 * asked once per position and said in words. Its values ignore R13 (a position has no history).
 * The reply is checked by plain code, not the protocol's zod schema: zod would overrun the
 * bundle budget (tablebase.test.ts holds the two to the same answers). Fetched here, not through
 * net/api.ts: sharing it would split it into a chunk of its own, a cost on the budget.
 */
import type { TablebaseReply, TablebaseResult } from '@bagh/protocol';
import { gameFromMoves, makePosition } from '@bagh/rules';
import { m } from '../../paraglide/messages.js';
import { type GameLine, winWords } from './analysis.js';

/** The moves named as keeping the value, at most. */
const KEEP = 3;
/** The table's tiers: 0–4 goats captured (the fifth capture ends the game, R14). */
const MAX_CAPTURED = 4;

/** The R41 position after `ply` moves when the table holds it (sliding phase, game on); else null. */
export function tablePosition(game: GameLine, ply: number): string | null {
  if (game.variant !== 'bagh-chal') return null;
  const played = gameFromMoves({
    variant: game.variant,
    options: game.options,
    start: game.start,
    moves: game.moves.slice(0, Math.max(0, ply)),
  });
  if (!played.ok || played.value.outcome) return null;
  const { position } = played.value;
  if (position.goatsInHand !== 0 || position.goatsCaptured > MAX_CAPTURED) return null;
  return makePosition(position);
}

const RESULTS: readonly unknown[] = ['tiger', 'goat', 'draw'] satisfies TablebaseResult[];
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const valued = (v: Record<string, unknown>): boolean =>
  RESULTS.includes(v.result) &&
  (v.plies === undefined || (typeof v.plies === 'number' && Number.isInteger(v.plies) && v.plies >= 0));

/** The reply when it has TablebaseReply's shape, else null. */
export function parseTableReply(data: unknown): TablebaseReply | null {
  if (!isRecord(data) || !valued(data) || !Array.isArray(data.moves)) return null;
  for (const move of data.moves as unknown[])
    if (!isRecord(move) || typeof move.move !== 'string' || move.move === '' || !valued(move)) return null;
  return data as TablebaseReply;
}

export interface TableView {
  readonly result: TablebaseResult;
  /** "Draw with best play", "Tigers win in 5 moves", … */
  readonly words: string;
  /** The moves that keep the value (same result and distance), best first. */
  readonly keep: readonly string[];
}

export function tableView(reply: TablebaseReply): TableView {
  const { result, plies = 0 } = reply;
  const words =
    result === 'draw'
      ? m.table_draw()
      : plies > 0
        ? winWords(result === 'tiger', plies)
        : result === 'tiger'
          ? m.verdict_tigers_won()
          : m.verdict_goats_won();
  const keep = reply.moves
    .filter((move) => move.result === result && move.plies === reply.plies)
    .slice(0, KEEP)
    .map((move) => move.move);
  return { result, words, keep };
}

/** The table's reply for `position`; null when the table does not hold it (400) or a reply is malformed. */
export async function fetchTable(position: string): Promise<TablebaseReply | null> {
  const res = await fetch(`/api/tablebase?position=${encodeURIComponent(position)}`);
  if (res.ok) return parseTableReply(await res.json().catch(() => null));
  if (res.status === 400) return null;
  throw new Error(`HTTP ${res.status}`); // 503: no table (yet)
}

/**
 * Asks the server about positions, each once: an answer or a refusal (400) is kept; a missing
 * table (503) or a network failure rejects and is asked again next time.
 */
export class TableProbe {
  readonly #asked = new Map<string, Promise<TablebaseReply | null>>();
  readonly #fetch: typeof fetchTable;

  constructor(fetcher: typeof fetchTable = fetchTable) {
    this.#fetch = fetcher;
  }

  ask(position: string): Promise<TablebaseReply | null> {
    const cached = this.#asked.get(position);
    if (cached) return cached;
    const answer = this.#fetch(position);
    this.#asked.set(position, answer);
    answer.catch(() => this.#asked.delete(position));
    return answer;
  }
}
