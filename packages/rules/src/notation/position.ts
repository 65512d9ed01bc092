/** R41 position string: `T3T/5/5/5/T3T g 20 0`. */
import { pointAt } from '../geometry.js';
import { err, ok, type Position, type Result, type RulesError, rulesError } from '../types.js';
import { emptyGoats } from '../variants.js';

export type PositionParseError = RulesError<'ERR_POSITION_SYNTAX'>;

const syntaxError = (message: string): Result<never, PositionParseError> =>
  err(rulesError('ERR_POSITION_SYNTAX', message));

const ROW_TOKEN = /T|G\((\d+)\)|G|[1-5]/y;

/** Parses the notation only; `positionFromSetup` decides whether it is a legal position. */
export function parsePosition(text: string): Result<Position, PositionParseError> {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 4) {
    return syntaxError(`expected 4 fields (board, side, in hand, captured), got ${fields.length}`);
  }
  const [boardField, sideField, handField, capturedField] = fields as [string, string, string, string];
  const rows = boardField.split('/');
  if (rows.length !== 5) return syntaxError(`expected 5 rows separated by '/', got ${rows.length}`);
  let tigers = 0;
  const goats = emptyGoats();
  for (let i = 0; i < 5; i++) {
    const rowText = rows[i]!;
    const row = 4 - i;
    let column = 0;
    ROW_TOKEN.lastIndex = 0;
    while (ROW_TOKEN.lastIndex < rowText.length) {
      const at = ROW_TOKEN.lastIndex;
      const match = ROW_TOKEN.exec(rowText);
      if (!match) return syntaxError(`row ${row + 1}: unexpected '${rowText.slice(at)}'`);
      const token = match[0];
      if (/^[1-5]$/.test(token)) {
        column += Number(token);
      } else {
        if (column >= 5) return syntaxError(`row ${row + 1}: '${rowText}' describes more than 5 points`);
        const point = pointAt(column, row);
        if (token === 'T') tigers |= 1 << point;
        else {
          const height = match[1] === undefined ? 1 : Number(match[1]);
          if (match[1] !== undefined && (height < 2 || height > 99)) {
            return syntaxError(`row ${row + 1}: a stack G(n) needs 2 ≤ n ≤ 99, got ${height}`);
          }
          goats[point] = height;
        }
        column++;
      }
    }
    if (column !== 5) return syntaxError(`row ${row + 1}: '${rowText}' does not describe exactly 5 points`);
  }
  if (sideField !== 't' && sideField !== 'g')
    return syntaxError(`side to move must be 't' or 'g', got '${sideField}'`);
  const count = (field: string): number | undefined => (/^\d{1,3}$/.test(field) ? Number(field) : undefined);
  const goatsInHand = count(handField);
  if (goatsInHand === undefined) return syntaxError(`goats in hand must be a number, got '${handField}'`);
  const goatsCaptured = count(capturedField);
  if (goatsCaptured === undefined)
    return syntaxError(`goats captured must be a number, got '${capturedField}'`);
  return ok({ tigers, goats, toMove: sideField === 't' ? 'tiger' : 'goat', goatsInHand, goatsCaptured });
}

export function makeBoardText(position: Position): string {
  const rows: string[] = [];
  for (let row = 4; row >= 0; row--) {
    let text = '';
    let empty = 0;
    for (let column = 0; column < 5; column++) {
      const point = pointAt(column, row);
      const height = position.goats[point] ?? 0;
      const piece =
        (position.tigers >>> point) & 1 ? 'T' : height === 1 ? 'G' : height > 1 ? `G(${height})` : '';
      if (piece === '') {
        empty++;
        continue;
      }
      if (empty > 0) text += String(empty);
      empty = 0;
      text += piece;
    }
    if (empty > 0) text += String(empty);
    rows.push(text);
  }
  return rows.join('/');
}

export function makePosition(position: Position): string {
  const side = position.toMove === 'tiger' ? 't' : 'g';
  return `${makeBoardText(position)} ${side} ${position.goatsInHand} ${position.goatsCaptured}`;
}
