/**
 * The two games of issue 21 (Bagh Chal, RULES.md move text, move numbers dropped), lost or let go
 * by `max` through the no-repeat rule (R13). The regression tests replay them; the bench's locked
 * starts begin with the second.
 */

/**
 * `max` plays the goats. After 140 plies (`TGGTG/GGT1G/GGGTG/1GGG1/1GGGG g 0 3`) the goats force
 * a trap within 11 plies, starting with d2-e2 or e3-d4; the game's `max` played b1-a1 on a stale
 * mate score and the game was drawn at the 300-ply cap.
 */
export const MISSED_WIN: readonly string[] = `
  G@d4 e5-e4 G@c1 e1-d2 G@b1 a1-a2 G@e2 a2-a3 G@e3 d2-c3 G@c5 a3-a4 G@a1 c3-d3 G@b5 d3-c3 G@d2
  c3-d3 G@d1 d3-c3 G@e1 c3xe5 G@b2 a4-b4 G@c3 e4-d4 G@a3 b4-c4 G@c2 d4-d3 G@b3 a5-a4 G@a2 d3-d4
  G@d3 a4-a5 G@e4 c4-b4 G@a4 e5-d5 e4-e5 d4-e4 c3-c4 b4xd4 c2-c3 a5-b4 a4-a5 b4-a4 c1-c2 d4-c4
  a5-b4 c4-d4 c5-c4 a4-a5 c4-c5 d4-c4 b4-a4 c4-b4 b1-c1 b4-c4 b3-b4 c4-d4 c1-b1 d4-c4 d1-c1 c4-d4
  e1-d1 d4-c4 d2-e1 c4-d4 c2-d2 d4-c4 b2-c2 c4-d4 a1-b2 d4-c4 e3-d4 e4-e3 d4-e4 c4-d4 b1-a1 d4-c4
  b2-b1 c4-d4 a2-b2 d4-c4 b2-b3 c4-d4 a1-b2 d4-c4 b2-a2 c4-d4 b1-b2 d4-c4 b2-a1 c4-d4 c2-b2 d4-c4
  d2-c2 e3-d2 e2-e3 d2xd4 a1-b1 d4-d3 c1-d2 d3-d4 b1-a1 d4-d3 b2-b1 d3-d4 a1-b2 d4-d3 b1-a1 d3-d4
  d1-c1 d4-d3 e1-d1 d3-d4 d2-e2 d4-d3 c1-d2 d3-d4 d2-e1 d4-d3 e3-d2 d3-d4 e4-e3 d4-d3 b2-b1 d3-d4
  a2-b2 d4-d3 b2-c1 d3-d4 a1-b2 d4-d3 e3-e4 d3-d4 e2-e3 d4-d3
`
  .trim()
  .split(/\s+/);

/**
 * `max` plays the tigers. After 141 plies only d3-d4 does not let the goats trap the tigers
 * within 10 plies; the game's e4-d4 lost at ply 151 (`GGGTT/GGG2/1GGTG/GGGTG/G1GGG t 0 3`, R15).
 */
export const LOST_FORTRESS: readonly string[] = `
  G@d1 e1-d2 G@c1 a5-b4 G@b1 a1-b2 G@a1 e5-d4 G@e1 d4-e5 G@a2 d2-e2 G@a3 b4-c5 G@a4 c5-b4 G@b5
  b4-c5 G@a5 c5-b4 G@c5 b4-c3 G@b4 c3-d4 G@b3 d4-d5 G@c4 b2-c2 G@b2 c2-c3 G@e3 e2xe4 G@e2 e4-e3
  G@d2 c3-d4 G@c3 d4-e4 G@d4 d5xd3 b2-c2 e5-d4 a1-b2 d4-e5 a2-a1 e4-d4 a1-a2 e5-d5 a2-a1 d4-e4
  a3-a2 d3-d4 a2-a3 d5-e5 a3-a2 d4-d5 a2-a3 e4-d4 a3-a2 e3-d3 e2-e3 e5-e4 e1-e2 e4-e5 a2-a3 e5-e4
  a1-a2 e4-e5 b1-a1 e5-e4 c1-b1 e4-e5 d2-e1 d3-d2 b1-c1 d4-e4 c3-d3 d2xd4 c2-c3 d4-d3 e1-d2 d5-d4
  a1-b1 d4-d5 a2-a1 d5-d4 c1-c2 d4-d5 b2-a2 e4-d4 a1-b2 e5-e4 a2-a1 e4-e5 c2-c1 e5-e4 a3-a2 e4-e5
  a4-a3 e5-e4 c1-c2 e4-e5 b1-c1 e5-e4 a1-b1 e4-e5 a3-a4 e5-e4 a2-a3 e4-e5 b1-a1 e5-e4 a3-a2 e4-e5
  d2-e1 d3-d2 a1-b1 e5-e4 b1-a1 d4-e5 a1-b1 e4-d4 b1-a1 e5-e4 a1-b1 d4-e5 b1-a1 d5-d4 a1-b1 d4-d3
  b1-a1 e5-d5 a1-b1 e4-d4 b1-a1 d5-e5 a1-b1 e5-e4 b1-a1 d4-e5 a1-b1 e4-d4 b1-a1 e5-e4 a1-b1 d4-d5
  b1-a1 e4-d4 a1-b1 d4-e5 b1-a1
`
  .trim()
  .split(/\s+/);
