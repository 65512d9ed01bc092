/** `max`'s move where the sliding-phase table knows something (issue 20): its wins, and its draws' R13 races. */
import type { MoveOracle } from '../bot.js';
import { blockProbe, type Tablebase } from './probe.js';
import { RaceProver } from './prover.js';
import { RACE_LIMITS, RACE_PROVEN, type RaceLimits, RaceSearch } from './race.js';

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
    const left = timeMs === undefined ? undefined : Math.max(0, timeMs - (performance.now() - started));
    const result = race.search(game, { ...limits, timeMs: left, ...(stopped ? { stopped } : {}) }, lost);
    if (result === null) return null;
    if (policy === 'race') return result.scores[0]!.move;
    const alive = result.scores.filter((s) => s.score > -RACE_PROVEN).map((s) => s.move);
    return alive.length > 0 ? alive : result.scores.map((s) => s.move);
  };
}
