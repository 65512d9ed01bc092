/**
 * Opening plies for engine matches: each chosen at random among the moves a fixed shallow search
 * rates within a margin of the best, so games between deterministic players differ without
 * handing either side a move it would never play.
 */
import { createGame, type Game, play } from '@bagh/rules';
import { Searcher } from './search.js';

export const OPENING_PLIES = 2;

/** Set positions the benches time the searchers from. */
export const SPEED_POSITIONS = {
  start: undefined,
  'mid placement': 'T3T/1G1G1/2G2/1G1G1/T3T g 15 0',
  'all placed': 'GGTGG/GG1GG/TG1GT/GGGG1/GGT1G g 0 0',
} as const;
/**
 * Deep enough to see that a first goat off the middle of an edge loses a goat (depth 4 rated the
 * centre within 18 points of the edge; depth 6 puts it 66 behind; the centre openings were
 * 7 of the 13 games max's goats lost to strong's tigers at 300k nodes, over all 60 openings).
 */
const OPENING_DEPTH = 6;
const OPENING_MARGIN = 20;

export function soundOpening(random: () => number, plies: number = OPENING_PLIES): Game {
  const created = createGame('bagh-chal');
  if (!created.ok) throw new Error(created.error.message);
  let game = created.value;
  for (let ply = 0; ply < plies && !game.outcome; ply++) {
    const { rootScores } = new Searcher().search(game, { maxDepth: OPENING_DEPTH, exactRootScores: true });
    const sound = rootScores.filter((s) => s.score >= rootScores[0]!.score - OPENING_MARGIN);
    const played = play(game, sound[Math.floor(random() * sound.length)]!.move);
    if (!played.ok) throw new Error(played.error.message);
    game = played.value;
  }
  return game;
}
