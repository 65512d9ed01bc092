/** Perft: the number of leaves of the legal-move tree below a game, for pinning move generation. */
import { Board, MAX_MOVES, type RepetitionTable } from './board.js';
import { type Game, historyOf } from './game.js';

export function perft(game: Game, depth: number): number {
  if (depth === 0) return 1;
  if (game.outcome) return 0;
  const board = new Board(game.variant, game.options, game.position);
  const history = historyOf(game).clone();
  if (board.multiJump) return perftMoves(board, history, depth);
  const buffers = Array.from({ length: depth }, () => new Int32Array(MAX_MOVES));
  return perftPacked(board, history, depth, buffers);
}

/** Fast path: packed single moves, no allocation, bulk counting at the last ply. */
function perftPacked(board: Board, history: RepetitionTable, depth: number, buffers: Int32Array[]): number {
  if (board.tigersHaveWon()) return 0;
  // While goats remain in hand no move can repeat a position (R13 bites only once all are placed).
  const repetitionPossible = board.noRepeat && board.goatsInHand === 0;
  if (depth === 1 && !repetitionPossible) return board.countPacked();
  const moves = buffers[depth - 1]!;
  const count = board.generatePacked(moves, 0);
  let leaves = 0;
  for (let i = 0; i < count; i++) {
    const m = moves[i]!;
    board.makePacked(m);
    if (!repetitionPossible) {
      // A no-op while goats stay in hand; the last placement's position joins the history.
      board.record(history);
      leaves += perftPacked(board, history, depth - 1, buffers);
      board.unrecord(history);
    } else if (!board.repeats(history)) {
      if (depth === 1) leaves++;
      else {
        board.record(history);
        leaves += perftPacked(board, history, depth - 1, buffers);
        board.unrecord(history);
      }
    }
    board.unmakePacked(m);
  }
  return leaves;
}

/**
 * The same count through the general path only (move objects, `legalMoves`): what multi-jump
 * games use, and the baseline the packed path is checked and benchmarked against.
 */
export function perftGeneral(game: Game, depth: number): number {
  if (depth === 0) return 1;
  if (game.outcome) return 0;
  return perftMoves(new Board(game.variant, game.options, game.position), historyOf(game).clone(), depth);
}

/** General path (multi-jumps): move objects, the same rules. */
function perftMoves(board: Board, history: RepetitionTable, depth: number): number {
  if (board.tigersHaveWon()) return 0;
  const moves = board.legalMoves(history);
  if (depth === 1) return moves.length;
  let leaves = 0;
  for (const move of moves) {
    board.make(move);
    board.record(history);
    leaves += perftMoves(board, history, depth - 1);
    board.unrecord(history);
    board.unmake(move);
  }
  return leaves;
}
