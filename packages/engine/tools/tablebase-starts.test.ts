/**
 * The bench's start classes (tablebase-starts.ts) on the reduced table of race.test.ts (the tigers
 * win at the first capture: tier 0): a start proven won for its mover is lost for the other side,
 * one proven lost for the mover is lost for it, an open one for neither; a start the cached file
 * does not list is proved afresh, and said so.
 */
import { blockProbe, RaceProver, solveTier, Tablebase } from '@bagh/engine/tablebase';
import { createGame, type Game, parsePosition, playMoveTexts } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { classifyStart, describeClass, STARTS_EXPANSIONS, startClasses } from './tablebase-starts.js';

const table = Tablebase.fromArrays([solveTier(0, null)], 1);
function gameAt(position: string, moves: string[]): Game {
  const start = parsePosition(position);
  if (!start.ok) throw new Error(start.error.message);
  const created = createGame('bagh-chal', {}, start.value);
  if (!created.ok) throw new Error(created.error.message);
  const played = playMoveTexts(created.value, moves);
  if (!played.ok) throw new Error(played.error.message);
  return played.value;
}
// race.test.ts's position: the tigers, to move, win the race with e3-d2 (and lose it with e1-d2).
const won = gameAt('GGGTG/GGT1G/GGGGG/GGGGT/GGGGT g 0 0', ['e3-d4', 'e2-e3', 'd2-e2']);
const lost = gameAt('GGGTG/GGT1G/GGGGG/GGGGT/GGGGT g 0 0', ['e3-d4', 'e2-e3', 'd2-e2', 'e1-d2']);

describe('the start classes of the table bench (R13)', () => {
  const prover = new RaceProver(blockProbe(table), table.winCaptures);

  it('names the side that loses whatever it plays, or none when the prover leaves it open', () => {
    expect(classifyStart(prover, won, 5000).lost).toBe('goat');
    expect(classifyStart(prover, lost, 5000).lost).toBe('tiger');
    expect(classifyStart(prover, won, 0).lost).toBeNull();
    expect(classifyStart(prover, won, 5000).plies).toBe(3);
  });

  it("records a budget other than the file's in the entry (a deeper proof), and says it", () => {
    const deeper = classifyStart(prover, won, 5000);
    expect(deeper.budget).toBe(5000);
    expect(describeClass(deeper)).toMatch(
      /^the goats lose \(proven\) in [\d,]+ expansions \(budget 5,000\)$/,
    );
    expect(classifyStart(prover, won, STARTS_EXPANSIONS).budget).toBeUndefined();
  });

  it('proves afresh a start the cached file does not match, and says so', () => {
    const lines: string[] = [];
    const classes = startClasses(table, [won, lost], (line) => lines.push(line));
    expect(classes.map((c) => c?.lost)).toEqual(['goat', 'tiger']);
    expect(lines.join('\n')).toContain('starts 0, 1 not in tools/tablebase-starts.json');
  });
});
