/** `max`'s move where the sliding-phase table knows something (issue 20): its wins, and its draws' R13 races. */
import { type Game, type Move, play } from '@bagh/rules';
import type { MoveOracle } from '../bot.js';
import { blockProbe, type Tablebase } from './probe.js';
import { RaceProver } from './prover.js';
import { RACE_LIMITS, RACE_PROVEN, type RaceLimits, RaceSearch } from './race.js';

/** How the table side chooses among the table's drawing moves. */
export type RacePolicy = 'race' | 'keep';

/** The prover's share of the time cap; the race search has the rest (but the check's share). */
const PROOF_SHARE = 0.4;
/** The share of the time cap kept from the race search for the check of its choice (`checkExpansions`). */
const CHECK_SHARE = 0.2;

/**
 * `max`'s oracle with the table (`useMoveOracle`): the table's fastest win where it has one;
 * in a table draw, the move the proof-number search proves won, if any; else, among the drawing
 * moves it did not prove lost, 'race' plays the race search's best one, 'keep' leaves `max`'s
 * search those the race search did not prove lost either; elsewhere (a table loss) nothing.
 * With `checkExpansions`, 'race' first puts the position after its best move, and after each move
 * scored within `checkMargin` of it, to the prover (that many expansions each, in the search's
 * order) and plays the first that the prover does not prove lost for the mover (the best if all are).
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
    const { checkExpansions = 0, checkMargin = 0 } = limits;
    const checking = policy === 'race' && checkExpansions > 0;
    const raceShare = checking ? 1 - CHECK_SHARE : 1;
    const left =
      timeMs === undefined ? undefined : Math.max(0, timeMs * raceShare - (performance.now() - started));
    const result = race.search(game, { ...limits, timeMs: left, ...(stopped ? { stopped } : {}) }, lost);
    if (result === null) return null;
    if (!checking) return policy === 'race' ? result.scores[0]!.move : alive(result.scores);
    const deadline = timeMs === undefined ? Number.POSITIVE_INFINITY : started + timeMs;
    return checked(game, result.scores, checkExpansions, checkMargin, deadline, stopped);
  };

  /**
   * The race search's choice, checked: the first of the moves scored within `margin` of the best
   * after which the prover (`expansions` each, until `deadline`) does not prove the race won for
   * the opponent. The best when the search proved its race, or every such move is proven lost.
   */
  function checked(
    game: Game,
    scores: RaceScores,
    expansions: number,
    margin: number,
    deadline: number,
    stopped?: () => boolean,
  ): Move {
    const best = scores[0]!;
    if (best.score >= RACE_PROVEN || best.score <= -RACE_PROVEN) return best.move;
    const near = scores.filter((s) => s.score >= best.score - margin);
    if (near.length < 2) return best.move;
    for (const { move } of near) {
      const left = deadline - performance.now();
      if (left <= 0 || stopped?.()) break;
      const after = play(game, move);
      if (!after.ok) continue;
      const proof = prover.prove(after.value, expansions, left, stopped);
      // Null: the opponent has no drawing move left (a race won; the search would have said so).
      if (proof === null || proof.status !== 'won') return move;
    }
    return best.move;
  }
}

type RaceScores = ReadonlyArray<{ readonly move: Move; readonly score: number }>;

/** 'keep': the moves the race search did not prove lost (all of them if it proved every one lost). */
function alive(scores: RaceScores): Move[] {
  const moves = scores.filter((s) => s.score > -RACE_PROVEN).map((s) => s.move);
  return moves.length > 0 ? moves : scores.map((s) => s.move);
}
