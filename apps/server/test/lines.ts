/** Short complete games found with the rules engine (a beam search), checked again by every test. */
export const BAGH_CHAL_TIGER_WIN = 'G@b1 a1xc1 G@b1 c1xa1 G@b1 a1xc1 G@b1 c1xa1 G@b1 a1xc1'.split(' ');

export const BAGH_CHAL_GOAT_WIN = (
  'G@c1 a1-b1 G@a1 e1-d1 G@e1 a5-b5 G@a5 e5-d5 G@c5 d5-e5 G@b2 e5-d5 G@b3 d5-e5 G@b4 e5-d5 ' +
  'G@d2 d5-e5 G@d3 e5-d5 G@d4 d5-e5 G@c3 e5-d5 G@e5'
).split(' ');

export const BAGH_GUTI_TIGER_WIN = (
  'c3xe5 b2-a1 c5xe3 a1-b1 e3xc5 b1-a1 c5xe3 a1-b1 e3xc5 b1-a1 c5xa3 a1-b1 a3xc5 b1-a1 ' +
  'c5xa3 a1-b1 a3xc5 b1-a1 c5xa3 a1-b1 a3xc1 b1-a1 c1xe3 a1-b1 e3xc1 b1-a1 c1xe3'
).split(' ');

/** A Bagh Guti game (no `noRepeat`) of `plies` moves that never ends: a tiger and a goat step to and fro. */
export function baghGutiLoop(plies: number): string[] {
  const loop = ['c2-c3', 'e1-d1', 'c3-c2', 'd1-e1'];
  const moves = ['c3-c2', 'd2-e1'];
  while (moves.length < plies) moves.push(loop[(moves.length - 2) % loop.length]!);
  return moves.slice(0, plies);
}
