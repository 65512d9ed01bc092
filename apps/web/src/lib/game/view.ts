/**
 * Pure projections from a server snapshot (or a game held in the browser) to what the UI shows.
 * No rules are decided here.
 */
import type { Level } from '@bagh/engine';
import type { ErrorCode, Role, Snapshot, TimeControl } from '@bagh/protocol';
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

export const VARIANT_INFO: { readonly [V in Variant]: { readonly name: string; readonly blurb: string } } = {
  'bagh-chal': {
    name: 'Bagh Chal',
    blurb: 'Nepal’s classic: 4 tigers hunt while 20 goats are placed one by one to hem them in.',
  },
  'bagh-guti': {
    name: 'Bagh Guti',
    blurb: 'Two tigers against four stacks of five goats on the alquerque board.',
  },
  'bagh-bandi': {
    name: 'Bagh Bandi',
    blurb: 'Bagh Guti on the orthogonal board: no diagonal lines.',
  },
};

export const OPTION_INFO: { readonly [K in keyof Options]: string } = {
  goatsFirst: 'Goats move first',
  multiJump: 'Tigers may chain jumps',
  noRepeat: 'No repeated positions',
};

/** A form's time choice (minutes, seconds per move) as a time control within the server's bounds. */
export function timeControlOf(timed: boolean, minutes: number, increment: number): TimeControl | null {
  if (!timed) return null;
  return {
    initialMs: Math.round(Math.min(180, Math.max(0.5, minutes || 0)) * 60_000),
    incrementMs: Math.round(Math.min(600, Math.max(0, increment || 0)) * 1000),
  };
}

/** The sides a player may ask for when a game is made. */
export const SIDE_CHOICES = [
  { value: 'goat', name: 'Goats' },
  { value: 'tiger', name: 'Tigers' },
  { value: 'random', name: 'Random' },
] as const;

/** The computer's levels (the engine's LEVELS), weakest first, in words. */
export const LEVEL_TEXT: { readonly [L in Level]: string } = {
  beginner: 'Beginner — makes mistakes',
  casual: 'Casual',
  strong: 'Strong',
  max: 'Max — the strongest',
};

export const sideName = (side: Side, plural = false): string =>
  side === 'tiger' ? (plural ? 'Tigers' : 'Tiger') : plural ? 'Goats' : 'Goat';

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
 * The snapshot's game with its history (the no-repeat rule, R13, needs it): its moves from the
 * variant's start; from its position alone if they do not lead there; null if unreadable.
 */
export function gameOfSnapshot(snapshot: Snapshot): Game | null {
  const spec = { variant: snapshot.variant, options: snapshot.options };
  const replayed = gameFromMoves({ ...spec, moves: snapshot.moves });
  if (replayed.ok && makePosition(replayed.value.position) === snapshot.position) return replayed.value;
  const alone = gameFromMoves({ ...spec, start: snapshot.position, moves: [] });
  return alone.ok ? alone.value : null;
}

/** Parses the snapshot's position and lists the hints; null if the snapshot is unreadable. */
export function boardModel(snapshot: Snapshot, role: Role | null, flipOverride: boolean): BoardModel | null {
  const position = positionOf(snapshot);
  if (!position) return null;
  const mine = role === 'tiger' || role === 'goat' ? role : null;
  let moves: readonly Move[] = [];
  if (mine && mine === snapshot.toMove && !snapshot.result) {
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
  return target === null ? String(captured) : `${captured}/${target}`;
}

/** Moves numbered by turn: [{ n: 1, moves: ['G@c3', 'a1-b2'] }, …]. */
export function numberedMoves(moves: readonly string[]): { n: number; moves: string[] }[] {
  const out: { n: number; moves: string[] }[] = [];
  for (let i = 0; i < moves.length; i += 2) out.push({ n: i / 2 + 1, moves: moves.slice(i, i + 2) });
  return out;
}

const REASONS: Record<string, string> = {
  captures: 'enough goats captured',
  trapped: 'the tigers cannot move',
  blocked: 'the goats cannot move',
  resign: 'resignation',
  resigned: 'resignation',
  agreement: 'agreement',
  timeout: 'time ran out',
  abandoned: 'abandonment',
  aborted: 'aborted',
};

/** A room's result, or an offline game's (the rules' own, whose reason is any string). */
export function resultText(result: { readonly winner: Side | null; readonly reason: string }): string {
  const why = REASONS[result.reason] ?? result.reason;
  if (result.reason === 'aborted') return 'Game aborted';
  if (!result.winner) return `Draw — ${why}`;
  return `${sideName(result.winner, true)} win — ${why}`;
}

export const ERROR_TEXT: { readonly [C in ErrorCode]: string } = {
  BAD_REQUEST: 'That request was not understood.',
  NOT_FOUND: 'This room does not exist.',
  UNAUTHORIZED: 'Your seat could not be confirmed.',
  SEAT_TAKEN: 'That seat has just been taken.',
  NOT_YOUR_TURN: 'It is not your turn.',
  ILLEGAL_MOVE: 'That move is not allowed.',
  STALE: 'The board changed; try again.',
  GAME_OVER: 'The game is over.',
  RATE_LIMITED: 'Slow down a little.',
  NOT_ALLOWED: 'You cannot do that here.',
  INTERNAL: 'The server had a problem.',
  UNAVAILABLE: 'The game could not be saved; try again.',
};

/** The room's connection indicator, by GameConnection status. */
export const CONNECTION_TEXT: { readonly [S in ConnectionStatus]: string } = {
  connecting: 'Connecting…',
  online: 'Online',
  'back-online': 'Back online',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
};

/** A short human message for an error code (unknown codes fall back to the server's text). */
export function errorText(error: { code: string; message?: string }): string {
  // A limit's message says which one and what to do (e.g. too many games against the computer).
  if (error.code === 'RATE_LIMITED' && error.message)
    return `${ERROR_TEXT.RATE_LIMITED.replace(/\.$/, '')} (${error.message}).`;
  return (ERROR_TEXT as Record<string, string>)[error.code] ?? error.message ?? 'Something went wrong.';
}

/**
 * The snapshot as it stood after `ply` moves, for stepping through a finished game: position,
 * moves and counts replayed with the rules from the variant's start; null when the moves do not
 * replay from there (a record imported with its own start position).
 */
export function snapshotAtPly(snapshot: Snapshot, ply: number): Snapshot | null {
  if (ply >= snapshot.moves.length) return snapshot;
  const played = gameFromMoves({
    variant: snapshot.variant,
    options: snapshot.options,
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

/** m:ss (or h:mm:ss), tenths under 10 s. */
export function clockText(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) return `0:0${(Math.floor(clamped / 100) / 10).toFixed(1)}`;
  const total = Math.ceil(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
