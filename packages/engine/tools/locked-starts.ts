/**
 * Locked movement-phase starts for the bench's max-against-max games: every goat placed, goats to
 * move, no capture open and the tigers with at most three free points around them. Found by
 * `strong` against itself from sound openings (seed, ply), plus issue 21's fortress at ply 120.
 */
export const LOCKED_STARTS: readonly string[] = [
  'GGGTT/GGG1T/1GG1G/GGGTG/G1GGG g 0 3', // issue 21's lost fortress after 120 plies
  'GTGGT/GT2G/G1TGG/1GGGG/GGGGG g 0 3', // seed 1 ply 43
  'GGTGG/GTGGG/GGTGG/GG1TG/GGG1G g 0 1', // seed 2 ply 41
  'GTGGG/GT1T1/G1TGG/1GGGG/GGGGG g 0 3', // seed 3 ply 47
  'GGGTG/GGT1T/GGG1T/GGGGG/GGGGG g 0 1', // seed 4 ply 39
  'GGGGG/GG1TG/GGTGG/GT1GG/TGGGG g 0 1', // seed 5 ply 39
  'GGGGG/GGGTG/GGG1G/GT1TG/GGGTG g 0 1', // seed 7 ply 39
  'GGGTG/G1TTG/GT2G/GGGGG/GGGGG g 0 2', // seed 8 ply 39
  'GGGGG/GT1GG/GGTTG/GT1GG/GGGGG g 0 1', // seed 9 ply 39
  'G1GGT/GGTTG/GG2G/GGG1T/GGGGG g 0 3', // seed 12 ply 41
  'GGGGG/GGGG1/GGTTG/GG1TG/GGGGT g 0 1', // seed 13 ply 39
  'GGTTG/GG2G/GGTTG/GGG1G/GGGGG g 0 2', // seed 14 ply 39
  'G1GGG/GTGGG/GGTGG/GT1GG/GTGGG g 0 1', // seed 16 ply 41
  'G1GGG/GGGGG/GGTTG/G2TG/GGGTG g 0 2', // seed 17 ply 39
  'GGGGG/GTGGG/GGT1G/GG1TG/GGGTG g 0 1', // seed 18 ply 39
  'GGG1T/TT1TG/G1GGG/GGGGG/GGGGG g 0 2', // seed 19 ply 43
  'GGGTG/G1T1G/GTTGG/GGGGG/GGGGG g 0 1', // seed 20 ply 39
  'GGT1G/GG1TG/GGTTG/GG1GG/GGGGG g 0 2', // seed 21 ply 41
  'GGGGG/GTGGG/G1TTG/GG2G/GGGTG g 0 2', // seed 22 ply 45
  'GGGGG/GGGGG/GGT1T/G1T1G/GGGTG g 0 2', // seed 23 ply 47
];
