/**
 * R43 OBX (Online Baghchal Exchange), for Bagh Chal positions:
 * `TXXXT/XXXXX/XXXXX/XXXXX/TXXXT g @20 c0 -` — rows top to bottom, OBX row r is our row 6 − r,
 * `X` empty; then side to move, `@` goats in hand, `c` goats captured, `m` last move or `-`.
 */
import { pointAt, pointColumn, pointRow } from '../geometry.js';
import { err, type Move, ok, type Position, type Result, type RulesError, rulesError } from '../types.js';
import { emptyGoats } from '../variants.js';

export type ObxError = RulesError<'ERR_OBX_SYNTAX'>;
const obxError = (message: string): Result<never, ObxError> => err(rulesError('ERR_OBX_SYNTAX', message));

const TOTAL_GOATS = 20;

/** Our point → OBX coordinates (A1 is the top-left corner). */
export const makeObxPoint = (p: number): string => `${'ABCDE'[pointColumn(p)]}${5 - pointRow(p)}`;

export function makeObxMove(move: Move): string {
  if (move.kind === 'place') return `m${makeObxPoint(move.to)}`;
  if (move.kind === 'step') return `m${makeObxPoint(move.from)}${makeObxPoint(move.to)}`;
  // OBX has single jumps only: from, landing, then the captured goat's point.
  const land = move.path[0]!;
  const over = pointAt(
    (pointColumn(move.from) + pointColumn(land)) / 2,
    (pointRow(move.from) + pointRow(land)) / 2,
  );
  return `m${makeObxPoint(move.from)}${makeObxPoint(land)}(${makeObxPoint(over)})`;
}

export function makeObx(position: Position, lastMove?: Move): string {
  const rows: string[] = [];
  for (let row = 4; row >= 0; row--) {
    let text = '';
    for (let column = 0; column < 5; column++) {
      const p = pointAt(column, row);
      text += (position.tigers >>> p) & 1 ? 'T' : (position.goats[p] ?? 0) > 0 ? 'G' : 'X';
    }
    rows.push(text);
  }
  const side = position.toMove === 'tiger' ? 't' : 'g';
  const last = lastMove ? makeObxMove(lastMove) : '-';
  return `${rows.join('/')} ${side} @${position.goatsInHand} c${position.goatsCaptured} ${last}`;
}

/** Reads an OBX position; the last-move and move-number fields are accepted and ignored. */
export function parseObx(text: string): Result<Position, ObxError> {
  const fields = text.trim().split(/\s+/);
  const [boardField, sideField, ...rest] = fields;
  const rows = (boardField ?? '').toUpperCase().split('/');
  if (rows.length !== 5 || rows.some((row) => !/^[TGX]{5}$/.test(row))) {
    return obxError(
      `board must be 5 rows of 5 letters T, G or X separated by '/', got '${boardField ?? ''}'`,
    );
  }
  let tigers = 0;
  let onBoard = 0;
  const goats = emptyGoats();
  rows.forEach((rowText, i) => {
    for (let column = 0; column < 5; column++) {
      const p = pointAt(column, 4 - i);
      if (rowText[column] === 'T') tigers |= 1 << p;
      if (rowText[column] === 'G') {
        goats[p] = 1;
        onBoard++;
      }
    }
  });
  const side = (sideField ?? '').toLowerCase();
  if (!['t', 'g', 'tiger', 'goat'].includes(side))
    return obxError(`side to move must be 't' or 'g', got '${sideField ?? ''}'`);
  let hand: number | undefined;
  let captured = 0;
  for (const field of rest) {
    if (/^@\d{1,2}$/.test(field)) hand = Number(field.slice(1));
    else if (/^c\d{1,2}$/i.test(field)) captured = Number(field.slice(1));
    else if (!/^(-|m\S*|#\S*|\|)$/i.test(field)) return obxError(`unexpected field '${field}'`);
  }
  return ok({
    tigers,
    goats,
    toMove: side.startsWith('t') ? 'tiger' : 'goat',
    goatsInHand: hand ?? Math.max(0, TOTAL_GOATS - onBoard - captured),
    goatsCaptured: captured,
  });
}
