import type { Move, RepetitionTable, SearchBoard } from '@bagh/rules';

/**
 * Each root move made (and its position recorded for R13), scored by `scoreAfter(alpha, move)` from the
 * mover's side with `alpha` the best score so far (starting at `floor`), undone; best first, the
 * given order kept among equals (a sort is stable).
 */
export function scoreRootMoves(
  board: SearchBoard,
  history: RepetitionTable,
  moves: Iterable<Move>,
  floor: number,
  scoreAfter: (alpha: number, move: Move) => number,
): Array<{ move: Move; score: number }> {
  const scored: Array<{ move: Move; score: number }> = [];
  let alpha = floor;
  for (const move of moves) {
    board.make(move);
    board.record(history);
    let score: number;
    try {
      score = scoreAfter(alpha, move);
    } finally {
      board.unrecord(history);
      board.unmake(move);
    }
    scored.push({ move, score });
    if (score > alpha) alpha = score;
  }
  return scored.sort((a, b) => b.score - a.score);
}
