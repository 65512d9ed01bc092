/** Pure projections from a server snapshot to what the UI shows. No rules are decided here. */
import type { ErrorCode, Role, Snapshot } from '@bagh/protocol';
import {
  type BoardKind,
  createGame,
  legalMoves,
  type Move,
  makeObx,
  makePosition,
  type Options,
  type Point,
  parseMove,
  parsePosition,
  playMoveTexts,
  pointsOf,
  type Side,
  VARIANT_RULES,
  type Variant,
} from '@bagh/rules';

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

/** The options a player may choose for a variant (RULES.md R21, R23, R26). */
export function choosableOptions(variant: Variant): (keyof Options)[] {
  return variant === 'bagh-chal' ? [] : ['goatsFirst', 'multiJump', 'noRepeat'];
}

export const sideName = (side: Side, plural = false): string =>
  side === 'tiger' ? (plural ? 'Tigers' : 'Tiger') : plural ? 'Goats' : 'Goat';

/** Parses the snapshot's position and lists the hints; null if the snapshot is unreadable. */
export function boardModel(snapshot: Snapshot, role: Role | null, flipOverride: boolean): BoardModel | null {
  const parsed = parsePosition(snapshot.position);
  if (!parsed.ok) return null;
  const position = parsed.value;
  const kind = VARIANT_RULES[snapshot.variant].board;
  const mine = role === 'tiger' || role === 'goat' ? role : null;
  let moves: readonly Move[] = [];
  if (mine && mine === snapshot.toMove && !snapshot.result) {
    const game = createGame(snapshot.variant, snapshot.options, position);
    if (game.ok) moves = legalMoves(game.value);
  }
  const last = snapshot.moves.at(-1);
  const lastParsed = last ? parseMove(last) : null;
  const defaultFlipped = mine === 'tiger';
  return {
    kind,
    tigers: pointsOf(position.tigers),
    goats: position.goats,
    moves,
    lastMove: lastParsed?.ok ? lastParsed.value : null,
    flipped: flipOverride ? !defaultFlipped : defaultFlipped,
    viewOnly: mine === null || !!snapshot.result,
    ply: snapshot.moves.length,
  };
}

/** Goats still on the board or in hand. */
export function goatsRemaining(snapshot: Snapshot): number {
  const parsed = parsePosition(snapshot.position);
  if (!parsed.ok) return 0;
  return parsed.value.goats.reduce((a, b) => a + b, 0) + snapshot.goatsInHand;
}

/** "x/5" for Bagh Chal (R14); the plain count for Guti and Bandi. */
export function capturedText(snapshot: Snapshot): string {
  const target = VARIANT_RULES[snapshot.variant].tigersWinAtCaptures;
  return target === null ? String(snapshot.captured) : `${snapshot.captured}/${target}`;
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

export function resultText(result: NonNullable<Snapshot['result']>): string {
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
};

/** A short human message for an error code (unknown codes fall back to the server's text). */
export function errorText(error: { code: string; message?: string }): string {
  return (ERROR_TEXT as Record<string, string>)[error.code] ?? error.message ?? 'Something went wrong.';
}

/**
 * The snapshot as it stood after `ply` moves, for stepping through a finished game: position,
 * moves and counts replayed with the rules from the variant's start; null when the moves do not
 * replay from there (a record imported with its own start position).
 */
export function snapshotAtPly(snapshot: Snapshot, ply: number): Snapshot | null {
  if (ply >= snapshot.moves.length) return snapshot;
  const start = createGame(snapshot.variant, snapshot.options);
  if (!start.ok) return null;
  const played = playMoveTexts(start.value, snapshot.moves.slice(0, Math.max(0, ply)));
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
  const parsed = parsePosition(snapshot.position);
  if (!parsed.ok) return null;
  const last = snapshot.moves.at(-1);
  const move = last ? parseMove(last) : null;
  return makeObx(parsed.value, move?.ok ? move.value : undefined);
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
