/**
 * Probing and the `max` hook on a reduced table (the tigers win at the second capture): the best
 * move is chosen among the moves R13 leaves legal in the game, not among all of them.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGame, type Game, legalMoves, makeMove, playMoveTexts } from '@bagh/rules';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseMove, seededRandom, useMoveOracle } from '../bot.js';
import { MANIFEST_FILE, SUMS_FILE, writeJson, writeText, writeTier } from './files.js';
import { blockProbe, Tablebase } from './probe.js';
import { solveTier } from './solver.js';
import { TierSpace } from './space.js';
import { positionAt } from './stats.js';

const tier1 = solveTier(1, null);
const table = Tablebase.fromArrays([solveTier(0, tier1), tier1], 2);
const reverse = (move: string) => move.split('-').reverse().join('-');

function gameAt(position: ReturnType<typeof positionAt>): Game {
  const game = createGame('bagh-chal', {}, position);
  if (!game.ok) throw new Error(game.error.message);
  return game.value;
}

/**
 * A game standing at a tigers-to-move position Y of tier 1 (two empty points: room to step back) whose table-best move m is a step that R13
 * forbids: it starts at X (Y after m), then a goat step g, m backwards, g backwards — Y again,
 * and m would bring X back.
 */
function repetitionGame(): { game: Game; forbidden: string } {
  const space = new TierSpace(1);
  for (let index = 0; index < space.positions; index += 2 * 97) {
    const before = gameAt(positionAt(1, index, space));
    const answer = table.analyse(before);
    if (!answer.ok || answer.value.moves.length < 2) continue;
    const best = answer.value.moves[0]!;
    // A step whose value some other move does not share: R13 then changes the choice's value or move.
    if (!best.move.includes('-')) continue;
    const after = playMoveTexts(before, [best.move]);
    if (!after.ok || after.value.outcome) continue;
    const x = gameAt(after.value.position);
    for (const goatMove of legalMoves(x).map(makeMove)) {
      const back = playMoveTexts(x, [goatMove, reverse(best.move), reverse(goatMove)]);
      if (back.ok && !back.value.outcome) return { game: back.value, forbidden: best.move };
    }
  }
  throw new Error('no such game found');
}

describe('the table’s best move under R13', () => {
  afterEach(() => useMoveOracle(null));

  it('is the best of the moves the game’s history leaves legal', () => {
    const { game, forbidden } = repetitionGame();
    const legal = legalMoves(game).map(makeMove);
    expect(legal).not.toContain(forbidden);
    // Without the history the same position would play the forbidden move.
    const fresh = table.bestMove(gameAt(game.position));
    expect(fresh && makeMove(fresh)).toBe(forbidden);
    const chosen = table.bestMove(game);
    expect(chosen).not.toBeNull();
    const answer = table.analyse(game);
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.value.moves.map((m) => m.move)).toEqual(expect.arrayContaining(legal));
    expect(answer.value.moves).toHaveLength(legal.length);
    expect(makeMove(chosen!)).toBe(answer.value.moves[0]!.move);
  });

  it('max plays it when the table is registered; the other levels and an unregistered max search', () => {
    const { game } = repetitionGame();
    const best = makeMove(table.bestMove(game)!);
    useMoveOracle((g) => table.bestMove(g));
    const choice = chooseMove(game, 'max', seededRandom(1));
    expect(choice && makeMove(choice.move)).toBe(best);
    expect(choice?.nodes).toBe(0);
    const searched = chooseMove(game, 'beginner', seededRandom(1), undefined, { maxNodes: 2000 });
    expect(searched?.nodes).toBeGreaterThan(0);
    useMoveOracle(null);
    expect(chooseMove(game, 'max', seededRandom(1), undefined, { maxNodes: 2000 })?.nodes).toBeGreaterThan(0);
  });
});

describe('the race search’s probe (a tiger set at a time)', () => {
  it('reads from the files what the table holds, blocks dropped and read again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bagh-block-'));
    try {
      writeTier(dir, 0, solveTier(0, tier1));
      writeTier(dir, 1, tier1);
      writeJson(dir, MANIFEST_FILE, { format: 1, winCaptures: 2, tiers: [] });
      writeText(dir, SUMS_FILE, '');
      const files = Tablebase.open(dir);
      // 2 kB: a few tier-1 blocks (840 B) at a time, so most reads follow an eviction; a block
      // read at a tiger set's first miss, or at its second (the first read a board at a time).
      const probes = [blockProbe(files, 2048, 4, 1), blockProbe(files, 2048, 4, 2)];
      let checked = 0;
      for (const probe of probes)
        for (const tier of [0, 1]) {
          const space = new TierSpace(tier);
          for (let index = 0; index < space.positions; index += 7919) {
            const position = positionAt(tier, index, space);
            let goats = 0;
            for (let p = 0; p < 25; p++) if ((position.goats[p] ?? 0) > 0) goats |= 1 << p;
            const goatToMove = position.toMove === 'goat';
            const expected = table.valueAt(position.tigers, goats, tier, goatToMove);
            expect(probe(position.tigers, goats, tier, goatToMove)).toBe(expected);
            checked++;
          }
        }
      expect(checked).toBeGreaterThan(1200);
      files.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
