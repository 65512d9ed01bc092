/** Board geometry as data: points, lines, neighbour masks and jump tables (R1–R3). */
import type { Point } from './types.js';

export const POINT_COUNT = 25;
export const ALL_POINTS_MASK = (1 << POINT_COUNT) - 1;
const FILES = 'abcde';

export type BoardKind = 'alquerque' | 'orthogonal';

export const pointColumn = (p: Point): number => p % 5;
export const pointRow = (p: Point): number => Math.floor(p / 5);
export const pointAt = (column: number, row: number): Point => row * 5 + column;
const onBoard = (column: number, row: number): boolean => column >= 0 && column < 5 && row >= 0 && row < 5;

export function makePoint(p: Point): string {
  return `${FILES[pointColumn(p)]}${pointRow(p) + 1}`;
}

/** Parses `a1`…`e5` (either case); undefined for anything else. */
export function parsePoint(text: string): Point | undefined {
  if (text.length !== 2) return undefined;
  const column = FILES.indexOf(text[0]!.toLowerCase());
  const row = text.charCodeAt(1) - 49;
  return column >= 0 && row >= 0 && row < 5 ? pointAt(column, row) : undefined;
}

/** R2: diagonals run through exactly the points whose column + row is even. */
export const hasDiagonals = (p: Point): boolean => (pointColumn(p) + pointRow(p)) % 2 === 0;

export interface Geometry {
  readonly kind: BoardKind;
  /** neighbours[p]: bitmask of the points joined to p by a line. */
  readonly neighbours: Int32Array;
  /** The jumps from p are jumpOver[p*8+i] / jumpLand[p*8+i] for i < jumpCount[p]. */
  readonly jumpCount: Int32Array;
  readonly jumpOver: Int32Array;
  readonly jumpLand: Int32Array;
  /** jumpOverBetween[from*25+land]: the point jumped, or -1 when no straight jump joins them. */
  readonly jumpOverBetween: Int32Array;
}

const ORTHOGONAL_DIRECTIONS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;
const DIAGONAL_DIRECTIONS = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
] as const;

function buildGeometry(kind: BoardKind): Geometry {
  const neighbours = new Int32Array(POINT_COUNT);
  const jumpCount = new Int32Array(POINT_COUNT);
  const jumpOver = new Int32Array(POINT_COUNT * 8);
  const jumpLand = new Int32Array(POINT_COUNT * 8);
  const jumpOverBetween = new Int32Array(POINT_COUNT * POINT_COUNT).fill(-1);
  for (let p = 0; p < POINT_COUNT; p++) {
    const c = pointColumn(p);
    const r = pointRow(p);
    const directions =
      kind === 'alquerque' && hasDiagonals(p)
        ? [...ORTHOGONAL_DIRECTIONS, ...DIAGONAL_DIRECTIONS]
        : ORTHOGONAL_DIRECTIONS;
    for (const [dc, dr] of directions) {
      if (!onBoard(c + dc, r + dr)) continue;
      const over = pointAt(c + dc, r + dr);
      neighbours[p]! |= 1 << over;
      if (!onBoard(c + 2 * dc, r + 2 * dr)) continue;
      const land = pointAt(c + 2 * dc, r + 2 * dr);
      const i = jumpCount[p]!++;
      jumpOver[p * 8 + i] = over;
      jumpLand[p * 8 + i] = land;
      jumpOverBetween[p * POINT_COUNT + land] = over;
    }
  }
  return { kind, neighbours, jumpCount, jumpOver, jumpLand, jumpOverBetween };
}

export const GEOMETRIES: { readonly [K in BoardKind]: Geometry } = {
  alquerque: buildGeometry('alquerque'),
  orthogonal: buildGeometry('orthogonal'),
};

export const areNeighbours = (g: Geometry, a: Point, b: Point): boolean =>
  ((g.neighbours[a]! >>> b) & 1) === 1;

export function popcount(mask: number): number {
  let x = mask - ((mask >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** The lowest point of a non-empty mask. */
export const lowestPoint = (mask: number): Point => 31 - Math.clz32(mask & -mask);

/** The points of a mask, lowest first. */
export function pointsOf(mask: number): Point[] {
  const points: Point[] = [];
  for (let m = mask; m !== 0; m &= m - 1) points.push(lowestPoint(m));
  return points;
}
