/** `max`'s move where the sliding-phase table knows something (issue 20): its wins, and its draws' R13 races. */
import { type Game, MAX_MOVES, type Move, sameMove } from '@bagh/rules';
import type { MoveOracle } from '../bot.js';
import { type BoardProbe, blockProbe, type Tablebase } from './probe.js';
import { RaceProver } from './prover.js';
import {
  DRAW,
  moveOutcome,
  RACE_LIMITS,
  RACE_PROVEN,
  type RaceLimits,
  RaceSearch,
  raceBoard,
} from './race.js';

/** How the table side chooses among the table's drawing moves. */
export type RacePolicy = 'race' | 'keep';

/** The prover's share of the time cap; the race search has the rest. */
const PROOF_SHARE = 0.4;

/**
 * `max`'s oracle with the table (`useMoveOracle`): the table's fastest win where it has one;
 * in a table draw, the move the proof-number search proves won, if any; else, among the drawing
 * moves it did not prove lost, 'race' plays the race search's best one, 'keep' leaves `max`'s
 * search those the race search did not prove lost either; elsewhere (a table loss) nothing.
 */
export function raceOracle(
  table: Tablebase,
  policy: RacePolicy = 'race',
  limits: RaceLimits = RACE_LIMITS,
): MoveOracle {
  const probe = blockProbe(table);
  const race = new RaceSearch(probe, table.winCaptures);
  const prover = new RaceProver(probe, table.winCaptures);
  return (game, stopped) => {
    const wins = table.winningMoves(game);
    if (wins.length > 0) return wins;
    const started = performance.now();
    const { proofExpansions = 0, timeMs } = limits;
    const proof =
      proofExpansions > 0
        ? prover.prove(
            game,
            proofExpansions,
            timeMs === undefined ? undefined : timeMs * PROOF_SHARE,
            stopped,
          )
        : null;
    const won = proof?.moves.find((m) => m.status === 'won');
    if (won) return won.move;
    const lost = proof?.moves.filter((m) => m.status === 'lost').map((m) => m.move);
    const left = () =>
      timeMs === undefined ? undefined : Math.max(0, timeMs - (performance.now() - started));
    const searched = (excluded?: Move[]) =>
      race.search(game, { ...limits, timeMs: left(), ...(stopped ? { stopped } : {}) }, excluded);
    // The goats concede no goat the tigers can take into a draw while a move not proven lost keeps them all.
    const conceding =
      limits.noConcession && game.position.toMove === 'goat' && proof
        ? concedingMoves(
            game,
            probe,
            table.winCaptures,
            proof.moves.map((m) => m.move),
          )
        : [];
    const notLost = proof?.moves.filter((m) => m.status !== 'lost').map((m) => m.move) ?? [];
    const keeping = notLost.filter((move) => !conceding.some((other) => sameMove(move, other)));
    let result =
      conceding.length > 0 && keeping.length > 0 ? searched([...(lost ?? []), ...conceding]) : searched(lost);
    // Every goat-keeping move lost within the race search's horizon: the conceding ones too.
    if (
      result !== null &&
      keeping.length > 0 &&
      conceding.length > 0 &&
      result.scores[0]!.score <= -RACE_PROVEN
    )
      result = searched(lost);
    if (result === null) return null;
    if (policy === 'race') return result.scores[0]!.move;
    const alive = result.scores.filter((s) => s.score > -RACE_PROVEN).map((s) => s.move);
    return alive.length > 0 ? alive : result.scores.map((s) => s.move);
  };
}

/** Of the goats' `moves`, those after which a tiger capture lands in a table draw (a goat given away). */
function concedingMoves(game: Game, probe: BoardProbe, winCaptures: number, moves: readonly Move[]): Move[] {
  const board = raceBoard(game, probe);
  if (board === null) return [];
  const replies = new Int32Array(MAX_MOVES);
  return moves.filter((move) => {
    board.make(move);
    const captured = board.goatsCaptured;
    const count = board.generatePacked(replies, 0);
    let concedes = false;
    for (let i = 0; i < count && !concedes; i++) {
      board.makePacked(replies[i]!);
      concedes = board.goatsCaptured > captured && moveOutcome(board, probe, winCaptures) === DRAW;
      board.unmakePacked(replies[i]!);
    }
    board.unmake(move);
    return concedes;
  });
}
