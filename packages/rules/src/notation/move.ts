/** R40 move text: `G@c3`, `a1-b2`, `a1xc3`, `a1xc3xe5`; lenient parse, canonical make. */
import { GEOMETRIES, makePoint, parsePoint, pointColumn, pointRow } from '../geometry.js';
import { err, type Move, ok, type Result, type RulesError, rulesError } from '../types.js';

export type MoveParseError = RulesError<'ERR_MOVE_SYNTAX'>;

export function makeMove(move: Move): string {
  switch (move.kind) {
    case 'place':
      return `G@${makePoint(move.to)}`;
    case 'step':
      return `${makePoint(move.from)}-${makePoint(move.to)}`;
    case 'jump':
      return [move.from, ...move.path].map(makePoint).join('x');
  }
}

const distance = (a: number, b: number): number =>
  Math.max(Math.abs(pointColumn(a) - pointColumn(b)), Math.abs(pointRow(a) - pointRow(b)));

/** A jump's landing lies two points away on a straight line (on either board's lines). */
const isJumpShape = (from: number, to: number): boolean =>
  GEOMETRIES.alquerque.jumpOverBetween[from * 25 + to]! >= 0;

function syntaxError(text: string, why: string): Result<never, MoveParseError> {
  return err(rulesError('ERR_MOVE_SYNTAX', `'${text}': ${why}`));
}

export function parseMove(input: string): Result<Move, MoveParseError> {
  const text = input.trim();
  const lower = text.toLowerCase();
  const placement = /^(?:g@)?([a-e][1-5])$/.exec(lower);
  if (placement) return ok({ kind: 'place', to: parsePoint(placement[1]!)! });
  if (!/^[a-e][1-5](?:[-x]?[a-e][1-5])+$/.test(lower)) {
    return syntaxError(text, 'not a move (expected e.g. G@c3, a1-b2, a1xc3)');
  }
  const points = (lower.match(/[a-e][1-5]/g) ?? []).map((p) => parsePoint(p)!);
  const separators = lower
    .replace(/[a-e][1-5]/g, ' ')
    .trim()
    .split(' ');
  const from = points[0]!;
  const rest = points.slice(1);
  if (separators.includes('-')) {
    if (rest.length !== 1) return syntaxError(text, 'a step goes to one point');
    if (distance(from, rest[0]!) !== 1) return syntaxError(text, 'a step goes to an adjacent point');
    return ok({ kind: 'step', from, to: rest[0]! });
  }
  if (rest.length === 1 && !separators.includes('x') && distance(from, rest[0]!) === 1) {
    return ok({ kind: 'step', from, to: rest[0]! });
  }
  let at = from;
  for (const land of rest) {
    if (!isJumpShape(at, land)) {
      return syntaxError(text, `${makePoint(at)} to ${makePoint(land)} is not a jump over one point`);
    }
    at = land;
  }
  return ok({ kind: 'jump', from, path: rest });
}
