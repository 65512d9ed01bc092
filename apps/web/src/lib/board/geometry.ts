/** Rules geometry → SVG coordinates. The board is drawn in a 0..SIZE square viewBox. */
import { type BoardKind, GEOMETRIES, POINT_COUNT, type Point, pointColumn, pointRow } from '@bagh/rules';

export const SIZE = 600;
export const MARGIN = 72;
export const STEP = (SIZE - 2 * MARGIN) / 4;

export interface XY {
  readonly x: number;
  readonly y: number;
}

/** Where a point is drawn. Unflipped: a1 bottom left (R1); flipped: rotated 180°. */
export function pointXY(p: Point, flipped: boolean): XY {
  const column = flipped ? 4 - pointColumn(p) : pointColumn(p);
  const row = flipped ? pointRow(p) : 4 - pointRow(p);
  return { x: MARGIN + column * STEP, y: MARGIN + row * STEP };
}

export interface Segment {
  readonly a: Point;
  readonly b: Point;
}

/** Every line segment between neighbouring points, each once (R2). */
export function boardSegments(kind: BoardKind): Segment[] {
  const g = GEOMETRIES[kind];
  const segments: Segment[] = [];
  for (let a = 0; a < POINT_COUNT; a++) {
    for (let b = a + 1; b < POINT_COUNT; b++) {
      if (((g.neighbours[a]! >>> b) & 1) === 1) segments.push({ a, b });
    }
  }
  return segments;
}

/** The point jumped over between `from` and `land`, or undefined. */
export function jumpedPoint(kind: BoardKind, from: Point, land: Point): Point | undefined {
  const over = GEOMETRIES[kind].jumpOverBetween[from * POINT_COUNT + land]!;
  return over >= 0 ? over : undefined;
}

/** File letters and rank digits along the edges, in screen order. */
export function edgeLabels(flipped: boolean): { files: string[]; ranks: string[] } {
  const files = ['a', 'b', 'c', 'd', 'e'];
  const ranks = ['5', '4', '3', '2', '1'];
  return flipped ? { files: files.reverse(), ranks: ranks.reverse() } : { files, ranks };
}
