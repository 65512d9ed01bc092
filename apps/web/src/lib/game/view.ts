/**
 * Pure projections from a server snapshot (or a game held in the browser) to what the UI shows.
 * No rules are decided here.
 */
import type { Level } from '@bagh/engine';
import type { ErrorCode, Role, Snapshot, TimeControl } from '@bagh/protocol';
import { MAX_PLIES } from '@bagh/protocol/limits';
import {
  type BoardKind,
  type Game,
  gameFromMoves,
  legalMoves,
  type Move,
  makeObx,
  makePosition,
  type Options,
  type Point,
  type Position,
  parseMove,
  parsePosition,
  pointsOf,
  type Side,
  VARIANT_RULES,
  type Variant,
} from '@bagh/rules';
import { m } from '../../paraglide/messages.js';
import { digits } from '../i18n/i18n.svelte.js';
import type { ConnectionStatus } from '../net/connection.svelte.js';

export interface BoardModel {
  readonly kind: BoardKind;
  readonly tigers: readonly Point[];
  /** goats[p]: goats on point p (a stack when > 1). */
  readonly goats: readonly number[];
  /** Moves the viewer may make now (empty when it is not their turn); hints only. */
  readonly moves: readonly Move[];
  readonly lastMove: Move | null;
  /** Rotated 180°: the tiger player's default view. */
  readonly flipped: boolean;
  readonly viewOnly: boolean;
  /** Moves played so far (keys animations). */
  readonly ply: number;
  /** A move to point out (the engine's best move, in analysis). */
  readonly hint?: Move | null;
}

/** Variant names and blurbs in the page's language (getters: read in a template, they follow it). */
export const VARIANT_INFO: { readonly [V in Variant]: { readonly name: string; readonly blurb: string } } = {
  'bagh-chal': {
    get name() {
      return m.variant_bagh_chal();
    },
    get blurb() {
      return m.variant_bagh_chal_blurb();
    },
  },
  'bagh-guti': {
    get name() {
      return m.variant_bagh_guti();
    },
    get blurb() {
      return m.variant_bagh_guti_blurb();
    },
  },
  'bagh-bandi': {
    get name() {
      return m.variant_bagh_bandi();
    },
    get blurb() {
      return m.variant_bagh_bandi_blurb();
    },
  },
};

export const OPTION_INFO: { readonly [K in keyof Options]: () => string } = {
  goatsFirst: m.option_goats_first,
  multiJump: m.option_multi_jump,
  noRepeat: m.option_no_repeat,
};

/** A form's time choice (minutes, seconds per move) as a time control within the server's bounds. */
export function timeControlOf(timed: boolean, minutes: number, increment: number): TimeControl | null {
  if (!timed) return null;
  return {
    initialMs: Math.round(Math.min(180, Math.max(0.5, minutes || 0)) * 60_000),
    incrementMs: Math.round(Math.min(600, Math.max(0, increment || 0)) * 1000),
  };
}

/** A choice card (value and name) whose name follows the page's language. */
export const choice = <T extends string>(value: T, name: () => string) => ({
  value,
  get name() {
    return name();
  },
});

/** The sides a player may ask for when a game is made. */
export const SIDE_CHOICES = [
  choice('goat', m.goats),
  choice('tiger', m.tigers),
  choice('random', m.side_random),
];

/** The computer's levels (the engine's LEVELS), weakest first, in words. */
export const LEVEL_TEXT: { readonly [L in Level]: () => string } = {
  beginner: m.level_beginner,
  casual: m.level_casual,
  strong: m.level_strong,
  max: m.level_max,
};

/** A level's short name ("Computer · casual"). */
export const LEVEL_NAME: { readonly [L in Level]: () => string } = {
  beginner: m.level_name_beginner,
  casual: m.level_name_casual,
  strong: m.level_name_strong,
  max: m.level_name_max,
};

export const sideName = (side: Side, plural = false): string =>
  side === 'tiger' ? (plural ? m.tigers() : m.tiger()) : plural ? m.goats() : m.goat();

/** The board's accessible name: the variant and the side it is seen from. */
export const boardLabel = (variant: string, flipped: boolean): string =>
  flipped ? m.board_label_tiger_side({ variant }) : m.board_label_goat_side({ variant });

/** The status line while a game goes on: whose move, marked when it is the viewer's. */
export function toMoveText(side: Side, yours: boolean): string {
  if (yours) return side === 'tiger' ? m.status_your_turn_tigers() : m.status_your_turn_goats();
  return side === 'tiger' ? m.status_tigers_to_move() : m.status_goats_to_move();
}

/** The snapshot's position, or null if it is unreadable. */
export function positionOf(snapshot: Snapshot): Position | null {
  const parsed = parsePosition(snapshot.position);
  return parsed.ok ? parsed.value : null;
}

/** A move text as a move, or null (no text, or unreadable). */
export function moveOrNull(text: string | null | undefined): Move | null {
  if (!text) return null;
  const parsed = parseMove(text);
  return parsed.ok ? parsed.value : null;
}

/** What a board shows of a position, for `mine` (null: a watcher) with `moves` to choose from. */
function modelOf(
  variant: Variant,
  position: Position,
  shown: {
    mine: Side | null;
    moves: readonly Move[];
    lastMove: Move | null;
    ply: number;
    viewOnly: boolean;
    flip: boolean;
  },
): BoardModel {
  const defaultFlipped = shown.mine === 'tiger';
  return {
    kind: VARIANT_RULES[variant].board,
    tigers: pointsOf(position.tigers),
    goats: position.goats,
    moves: shown.moves,
    lastMove: shown.lastMove,
    flipped: shown.flip ? !defaultFlipped : defaultFlipped,
    viewOnly: shown.viewOnly,
    ply: shown.ply,
  };
}

/**
 * The snapshot's game with its history (the no-repeat rule, R13, needs it): its moves from its
 * start; from its position alone if they do not lead there; null if unreadable.
 */
export function gameOfSnapshot(snapshot: Snapshot): Game | null {
  const spec = { variant: snapshot.variant, options: snapshot.options };
  const replayed = gameFromMoves({ ...spec, start: snapshot.start, moves: snapshot.moves });
  if (replayed.ok && makePosition(replayed.value.position) === snapshot.position) return replayed.value;
  const alone = gameFromMoves({ ...spec, start: snapshot.position, moves: [] });
  return alone.ok ? alone.value : null;
}

/** Whether the game stands at the most moves a room keeps: nobody may move, it ends by the players. */
export const atMoveCap = (snapshot: Snapshot): boolean =>
  !snapshot.result && snapshot.moves.length >= MAX_PLIES;

/** The status line of a game at the cap (atMoveCap). */
export const moveCapText = (): string => m.status_move_cap({ count: digits(MAX_PLIES.toLocaleString('en')) });

/** Parses the snapshot's position and lists the hints; null if the snapshot is unreadable. */
export function boardModel(snapshot: Snapshot, role: Role | null, flipOverride: boolean): BoardModel | null {
  const position = positionOf(snapshot);
  if (!position) return null;
  const mine = role === 'tiger' || role === 'goat' ? role : null;
  let moves: readonly Move[] = [];
  if (mine && mine === snapshot.toMove && !snapshot.result && !atMoveCap(snapshot)) {
    const game = gameOfSnapshot(snapshot);
    if (game) moves = legalMoves(game);
  }
  return modelOf(snapshot.variant, position, {
    mine,
    moves,
    lastMove: moveOrNull(snapshot.moves.at(-1)),
    ply: snapshot.moves.length,
    viewOnly: mine === null || !!snapshot.result,
    flip: flipOverride,
  });
}

/**
 * The board of a player whose move waits for the connection: the move shown played, nothing
 * more to do until the server confirms it (or refuses it, and the snapshot's board is back);
 * null when the move does not play from the snapshot.
 */
export function boardWithWaitingMove(
  snapshot: Snapshot,
  role: Role | null,
  flipOverride: boolean,
  move: string,
): BoardModel | null {
  const position = positionOf(snapshot);
  const played = position
    ? gameFromMoves({ variant: snapshot.variant, options: snapshot.options, start: position, moves: [move] })
    : null;
  if (!played?.ok) return null;
  return modelOf(snapshot.variant, played.value.position, {
    mine: role === 'tiger' || role === 'goat' ? role : null,
    moves: [],
    lastMove: played.value.moves.at(-1) ?? null,
    ply: snapshot.moves.length + 1,
    viewOnly: true,
    flip: flipOverride,
  });
}

/**
 * A game held in the browser (offline play), seen by the `mine` player: their legal moves while
 * `canMove` (their turn, the game on), none otherwise.
 */
export function gameBoardModel(game: Game, mine: Side, canMove: boolean, flipOverride: boolean): BoardModel {
  return modelOf(game.variant, game.position, {
    mine,
    moves: canMove ? legalMoves(game) : [],
    lastMove: game.moves.at(-1) ?? null,
    ply: game.moves.length,
    viewOnly: !canMove,
    flip: flipOverride,
  });
}

/** Goats still on the board or in hand. */
export function goatsRemaining(position: Position): number {
  return position.goats.reduce((a, b) => a + b, 0) + position.goatsInHand;
}

/** "x/5" for Bagh Chal (R14); the plain count for Guti and Bandi. */
export function capturedText(variant: Variant, captured: number): string {
  const target = VARIANT_RULES[variant].tigersWinAtCaptures;
  return digits(target === null ? String(captured) : `${captured}/${target}`);
}

/** Moves numbered by turn: [{ n: 1, moves: ['G@c3', 'a1-b2'] }, …]. */
export function numberedMoves(moves: readonly string[]): { n: number; moves: string[] }[] {
  const out: { n: number; moves: string[] }[] = [];
  for (let i = 0; i < moves.length; i += 2) out.push({ n: i / 2 + 1, moves: moves.slice(i, i + 2) });
  return out;
}

const REASONS: Record<string, () => string> = {
  captures: m.reason_captures,
  trapped: m.reason_trapped,
  blocked: m.reason_blocked,
  resign: m.reason_resign,
  resigned: m.reason_resign,
  agreement: m.reason_agreement,
  timeout: m.reason_timeout,
  abandoned: m.reason_abandoned,
  aborted: m.reason_aborted,
};

/** A room's result, or an offline game's (the rules' own, whose reason is any string). */
export function resultText(result: { readonly winner: Side | null; readonly reason: string }): string {
  const why = REASONS[result.reason]?.() ?? result.reason;
  if (result.reason === 'aborted') return m.result_aborted();
  if (!result.winner) return m.result_draw({ why });
  return result.winner === 'tiger' ? m.result_tigers_win({ why }) : m.result_goats_win({ why });
}

/** The client's own text for each of the protocol's error codes (the server's stays English). */
export const ERROR_TEXT: { readonly [C in ErrorCode]: () => string } = {
  BAD_REQUEST: m.error_bad_request,
  NOT_FOUND: m.error_not_found,
  UNAUTHORIZED: m.error_unauthorized,
  SEAT_TAKEN: m.error_seat_taken,
  NOT_YOUR_TURN: m.error_not_your_turn,
  ILLEGAL_MOVE: m.error_illegal_move,
  STALE: m.error_stale,
  GAME_OVER: m.error_game_over,
  RATE_LIMITED: m.error_rate_limited,
  NOT_ALLOWED: m.error_not_allowed,
  INTERNAL: m.error_internal,
  UNAVAILABLE: m.error_unavailable,
};

/** The room's connection indicator, by GameConnection status. */
export const CONNECTION_TEXT: { readonly [S in ConnectionStatus]: () => string } = {
  connecting: m.conn_connecting,
  online: m.conn_online,
  'back-online': m.conn_back_online,
  reconnecting: m.conn_reconnecting,
  offline: m.conn_offline,
};

/** A short human message for an error code (unknown codes fall back to the server's text). */
export function errorText(error: { code: string; message?: string }): string {
  // A limit's message says which one and what to do (e.g. too many games against the computer).
  if (error.code === 'RATE_LIMITED' && error.message) return m.error_rate_limited_why({ why: error.message });
  return (ERROR_TEXT as Record<string, () => string>)[error.code]?.() ?? error.message ?? m.error_unknown();
}

/**
 * Why a game record was not opened: the server's reason when it explains the record (a
 * BAD_REQUEST names what does not parse, in English: the record's own terms); otherwise the
 * client's own words (a store fault, a server out of reach), in the page's language.
 */
export function recordErrorText(error: { code: string; message?: string }): string {
  return error.code === 'BAD_REQUEST' && error.message ? error.message : errorText(error);
}

/**
 * The snapshot as it stood after `ply` moves, for stepping through a finished game: position,
 * moves and counts replayed with the rules from its start; null when the moves do not replay.
 */
export function snapshotAtPly(snapshot: Snapshot, ply: number): Snapshot | null {
  if (ply >= snapshot.moves.length) return snapshot;
  const played = gameFromMoves({
    variant: snapshot.variant,
    options: snapshot.options,
    start: snapshot.start,
    moves: snapshot.moves.slice(0, Math.max(0, ply)),
  });
  if (!played.ok) return null;
  const { position } = played.value;
  return {
    ...snapshot,
    position: makePosition(position),
    moves: snapshot.moves.slice(0, ply),
    toMove: position.toMove,
    goatsInHand: position.goatsInHand,
    captured: position.goatsCaptured,
  };
}

/** OBX (R43) of a Bagh Chal snapshot's position; null for the other variants. */
export function obxOf(snapshot: Snapshot): string | null {
  if (snapshot.variant !== 'bagh-chal') return null;
  const position = positionOf(snapshot);
  if (!position) return null;
  return makeObx(position, moveOrNull(snapshot.moves.at(-1)) ?? undefined);
}

/** m:ss (or h:mm:ss), tenths under 10 s, in the language's digits. */
export function clockText(ms: number): string {
  return digits(latinClock(ms));
}

function latinClock(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) return `0:0${(Math.floor(clamped / 100) / 10).toFixed(1)}`;
  const total = Math.ceil(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
