/**
 * Opening plies for engine matches: each chosen at random among the moves a fixed shallow search
 * rates within a margin of the best, so games between deterministic players differ without
 * handing either side a move it would never play.
 */
import { createGame, type Game, type Move, makeMove, play } from '@bagh/rules';
import { Searcher } from './search.js';

export const OPENING_PLIES = 2;

/**
 * Deep enough to see that a first goat off the middle of an edge loses a goat (depth 4 rated the
 * centre within 18 points of the edge; depth 6 puts it 66 behind; the centre openings were
 * 7 of the 13 games max's goats lost to strong's tigers at 300k nodes, over all 60 openings).
 */
const OPENING_DEPTH = 6;
const OPENING_MARGIN = 20;

/** soundMoves per opening line so far: a fixed search, so each line is searched once per process. */
const soundCache = new Map<string, Move[]>();

/** The moves a fixed shallow search rates within the margin of the best. */
function soundMoves(game: Game): Move[] {
  const line = game.moves.map(makeMove).join(' ');
  let sound = soundCache.get(line);
  if (!sound) {
    const { rootScores } = new Searcher().search(game, { maxDepth: OPENING_DEPTH, exactRootScores: true });
    sound = rootScores.filter((s) => s.score >= rootScores[0]!.score - OPENING_MARGIN).map((s) => s.move);
    soundCache.set(line, sound);
  }
  return sound;
}

function startGame(): Game {
  const created = createGame('bagh-chal');
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

function played(game: Game, move: Move): Game {
  const next = play(game, move);
  if (!next.ok) throw new Error(next.error.message);
  return next.value;
}

export function soundOpening(random: () => number, plies: number = OPENING_PLIES): Game {
  let game = startGame();
  for (let ply = 0; ply < plies && !game.outcome; ply++) {
    const sound = soundMoves(game);
    game = played(game, sound[Math.floor(random() * sound.length)]!);
  }
  return game;
}

/** Every opening `soundOpening` can return, as move lists: the whole population matches sample. */
export function everySoundOpening(plies: number = OPENING_PLIES): Move[][] {
  const grow = (game: Game, line: Move[]): Move[][] =>
    line.length === plies || game.outcome
      ? [line]
      : soundMoves(game).flatMap((move) => grow(played(game, move), [...line, move]));
  return grow(startGame(), []);
}
