import {
  createGame,
  GEOMETRIES,
  legalMoves,
  MAX_MOVES,
  makeMove,
  POINT_COUNT,
  parsePosition,
  play,
  SearchBoard,
} from '@bagh/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exposedGoats, goatsCramped, SPARE_SAFE_MOVES, scanCaptures } from './evaluate.js';
import {
  botMove,
  chooseMove,
  DEFAULT_WEIGHTS,
  evaluateForTigers,
  everySoundOpening,
  GOAT_WEIGHTS,
  LEVEL_SETTINGS,
  LEVELS,
  OPENING_PLIES,
  Searcher,
  seededRandom,
  soundOpening,
  WIN_SCORE,
} from './index.js';
import { GOAT_BUDGET_SHAPE } from './search.js';
import { crowdedPoints, crowdedPosition, gameAt } from './test-helpers.js';

/**
 * A one-ply search with every root move scored exactly, so what decides is what the horizon sees:
 * the move chosen, and by how much it beats `rival`.
 */
function horizonChoice(position: string, rival: string): { move: string; margin: number } {
  const game = gameAt('bagh-chal', position);
  const result = new Searcher().search(game, {
    maxDepth: 1,
    exactRootScores: true,
    weights: DEFAULT_WEIGHTS,
  });
  const rivalScore = result.rootScores.find((s) => makeMove(s.move) === rival)!.score;
  return { move: makeMove(result.move!), margin: result.score - rivalScore };
}

describe('search', () => {
  it('takes the fifth goat when it can', () => {
    const game = gameAt('bagh-chal', 'T3T/5/5/1G3/T3T t 10 4');
    const result = new Searcher().search(game, { maxDepth: 3 });
    expect(makeMove(result.move!)).toBe('a1xc3');
    expect(result.score).toBeGreaterThan(WIN_SCORE - 10);
  });

  it('as goats, does not leave a goat to be taken when it need not', () => {
    // The goat on b2 hangs to a1xc3 unless c3 is covered.
    const game = gameAt('bagh-chal', 'T3T/5/5/1G3/T3T g 19 0');
    const result = new Searcher().search(game, { maxDepth: 2 });
    expect(makeMove(result.move!)).toBe('G@c3');
  });

  it('with the endgame table, places the last goat where the tigers end up trapped', () => {
    // G@a5 traps the tigers 13 plies later; G@d5 loses a goat 3 plies later. Neither shows at
    // a one-ply horizon, which prefers G@d5 unless it counts the goats' safe moves.
    const game = gameAt('bagh-chal', '1GG1T/TGGTG/GGGGG/GGGGG/TGGGG g 1 0');
    const weights = { ...GOAT_WEIGHTS, crampedGoats: 0 };
    const horizon = new Searcher().search(game, { maxDepth: 1, weights });
    const tabled = new Searcher().search(game, { maxDepth: 1, endgame: true, weights });
    expect(makeMove(horizon.move!)).toBe('G@d5');
    expect(makeMove(tabled.move!)).toBe('G@a5');
    expect(tabled.score).toBeGreaterThan(WIN_SCORE / 4);
    expect(makeMove(new Searcher().search(game, { maxDepth: 1 }).move!)).toBe('G@a5');
  });

  it('never proposes a move the rules forbid, R13 included', () => {
    const start = gameAt('bagh-chal', 'T4/5/5/5/3G1 t 0 0', ['a5-b5', 'd1-d2', 'b5-a5']);
    const result = new Searcher().search(start, { maxDepth: 4 });
    expect(legalMoves(start).map(makeMove)).toContain(makeMove(result.move!));
    expect(makeMove(result.move!)).not.toBe('d2-d1');
  });

  it('with late-move reductions, searches deeper on the same nodes and keeps the tactics', () => {
    const placing = gameAt('bagh-chal', 'T3T/1G1G1/2G2/1G1G1/T3T g 15 0');
    const plain = new Searcher().search(placing, { maxNodes: 200_000 });
    const reduced = new Searcher().search(placing, { maxNodes: 200_000, reductions: true });
    expect(reduced.depth).toBeGreaterThan(plain.depth);
    // The hanging goat is still covered, and the fifth goat still taken.
    const hanging = new Searcher().search(gameAt('bagh-chal', 'T3T/5/5/1G3/T3T g 19 0'), {
      maxDepth: 5,
      reductions: true,
    });
    expect(makeMove(hanging.move!)).toBe('G@c3');
    const fifth = new Searcher().search(gameAt('bagh-chal', 'T3T/5/5/1G3/T3T t 10 4'), {
      maxDepth: 5,
      reductions: true,
    });
    expect(makeMove(fifth.move!)).toBe('a1xc3');
  });

  it('stops at its node budget and reports the depth it completed', () => {
    const created = createGame('bagh-guti');
    if (!created.ok) throw new Error('no game');
    const result = new Searcher().search(created.value, { maxNodes: 20_000 });
    expect(result.nodes).toBeLessThan(20_000 + 64); // the last node may still probe its captures
    expect(result.depth).toBeGreaterThanOrEqual(2);
  });

  it('stops when told to, at its next clock check, with the depth it completed', () => {
    const created = createGame('bagh-chal');
    if (!created.ok) throw new Error('no game');
    let polls = 0;
    const result = new Searcher().search(created.value, { maxNodes: 2_000_000, stopped: () => ++polls > 3 });
    // Polled every 1024 nodes: the fourth poll ends it, far short of its node budget.
    expect(polls).toBe(4);
    expect(result.nodes).toBeLessThan(4 * 1024 + 64);
    expect(result.move).not.toBeNull();
  });
  it('at its horizon, lets the goats answer a threat and sees the fork that wins a goat', () => {
    // a2-a1 attacks b2 (to c3) and b1 (to c1) at once; a goat can cover only one landing.
    const { move, margin } = horizonChoice('T3T/5/5/TGG2/1G2T t 17 0', 'a2-a3');
    expect(move).toBe('a2-a1');
    expect(margin).toBeGreaterThan(DEFAULT_WEIGHTS.capture);
  });

  it('at its horizon, sees goats with no safe move lose one: they may not stand pat', () => {
    // c4-c5 leaves the goats one empty point, c4, and either goat stepping in opens a jump.
    const { move, margin } = horizonChoice('GG1GG/GGTTG/GTGTG/GGGGG/GGGGG t 0 0', 'd4-c5');
    expect(move).toBe('c4-c5');
    expect(margin).toBeGreaterThan(DEFAULT_WEIGHTS.capture / 2);
  });

  it('finds the same best score with and without its move-ordering memory', () => {
    const game = gameAt('bagh-chal', 'T1G2/2GT1/G4/3T1/T4 g 17 0');
    const warm = new Searcher();
    warm.search(gameAt('bagh-chal', 'T3T/5/5/5/T3T g 20 0'), { maxDepth: 5 });
    const fresh = new Searcher().search(game, { maxDepth: 4, exactRootScores: true });
    const reused = warm.search(game, { maxDepth: 4, exactRootScores: true });
    expect(reused.score).toBe(fresh.score);
  });

  it('a searcher shared by both sides and by analysis scores as a fresh one would', () => {
    // The engine worker serves every room: the stored scores of one side's weights or one board
    // must not answer a search with other weights or on another board.
    const game = gameAt('bagh-chal', 'T1G2/2GT1/G4/3T1/T4 g 17 0');
    const shared = new Searcher();
    shared.search(game, { maxDepth: 5, weights: DEFAULT_WEIGHTS });
    shared.search(gameAt('bagh-bandi', 'T1G2/2GT1/G4/3T1/T4 g 17 0'), { maxDepth: 5, weights: GOAT_WEIGHTS });
    const fresh = new Searcher().search(game, { maxDepth: 5, weights: GOAT_WEIGHTS, exactRootScores: true });
    const reused = shared.search(game, { maxDepth: 5, weights: GOAT_WEIGHTS, exactRootScores: true });
    expect(reused.rootScores).toEqual(fresh.rootScores);
  });

  it('with the multiJump option, searches multi-jumps and takes the longest', () => {
    // Bagh Guti's option (Bagh Chal has one jump per turn, R12).
    const start = parsePosition('5/GGG2/GGG2/4T/TG1G1 t 0 0');
    if (!start.ok) throw new Error(start.error.message);
    const created = createGame('bagh-guti', { multiJump: true }, start.value);
    if (!created.ok) throw new Error(created.error.message);
    const result = new Searcher().search(created.value, { maxDepth: 3 });
    expect(makeMove(result.move!)).toBe('a1xc1xe1');
  });

  it('returns no move when the game is over', () => {
    const over = gameAt('bagh-chal', 'TGG2/GG3/G1G2/5/5 t 0 0');
    expect(new Searcher().search(over).move).toBeNull();
  });
});

/** A clock that never moves: node budgets alone end the searches, however loaded the machine. */
const FROZEN = { now: () => 0 } as const;

describe('levels', () => {
  it('every level plays only legal moves, reproducibly for a seed', () => {
    for (const level of LEVELS) {
      const created = createGame('bagh-chal');
      if (!created.ok) throw new Error('no game');
      let game = created.value;
      const seen: string[] = [];
      for (let ply = 0; ply < 4; ply++) {
        const choice = chooseMove(game, level, seededRandom(ply), new Searcher(), {
          ...FROZEN,
          maxNodes: 3_000,
        });
        expect(choice).not.toBeNull();
        const played = play(game, choice!.move);
        expect(played.ok).toBe(true);
        if (!played.ok) break;
        game = played.value;
        seen.push(makeMove(choice!.move));
      }
      let again = created.value;
      for (const [ply, text] of seen.entries()) {
        const choice = chooseMove(again, level, seededRandom(ply), new Searcher(), {
          ...FROZEN,
          maxNodes: 3_000,
        });
        expect(makeMove(choice!.move), level).toBe(text);
        const played = play(again, choice!.move);
        if (played.ok) again = played.value;
      }
    }
  });

  it('each stops at its time limit by the clock it is given, within its budget', () => {
    const STEP_MS = 10;
    for (const level of LEVELS) {
      let clock = 0; // each read of the clock is STEP_MS later: time passes as the search works
      const now = () => (clock += STEP_MS);
      const reply = botMove(
        { variant: 'bagh-chal', options: {}, moves: ['G@c3', 'a1-b2'], level, seed: 7 },
        new Searcher(),
        { now },
      );
      expect(reply.move, level).not.toBeNull();
      const { limits, budgetMs } = LEVEL_SETTINGS[level];
      const took = clock - STEP_MS; // from its first read, which set the deadline
      expect(took, level).toBeLessThanOrEqual(limits.timeMs!);
      expect(took, level).toBeLessThanOrEqual(budgetMs);
      // max has nodes to spare for far longer: its clock, not its node budget, ended it (the
      // goats' clock shaped by the phase: here early in the placement, less than the level's).
      if (level === 'max') expect(took).toBe(limits.timeMs! * GOAT_BUDGET_SHAPE.elsewhere);
    }
  });
});

describe('openings', () => {
  it('plays sound opening plies, reproducibly per seed, and varies with the seed', () => {
    const openings = new Set<string>();
    for (let seed = 0; seed < 6; seed++) {
      const game = soundOpening(seededRandom(seed));
      expect(game.moves).toHaveLength(OPENING_PLIES);
      const text = game.moves.map(makeMove).join(' ');
      expect(soundOpening(seededRandom(seed)).moves.map(makeMove).join(' ')).toBe(text);
      openings.add(text);
    }
    expect(openings.size).toBeGreaterThan(1);
  });

  it('counts the tigers on the points with the most lines, on either board', () => {
    const only = { ...DEFAULT_WEIGHTS, capture: 0, threat: 0, mobility: 0, trappedTiger: 0, centralTiger: 1 };
    const centralTigers = (variant: 'bagh-chal' | 'bagh-bandi') => {
      const game = gameAt(variant, 'T4/1T3/2T2/2T2/5 g 20 0');
      return evaluateForTigers(new SearchBoard(game.variant, game.options, game.position), only);
    };
    // b4 and c3 have eight lines on the alquerque board, c2 four; all three are inner on the grid.
    expect(centralTigers('bagh-chal')).toBe(2);
    expect(centralTigers('bagh-bandi')).toBe(3);
  });

  it('lists every opening the random ones are drawn from: a first goat on an edge middle', () => {
    const every = everySoundOpening().map((line) => line.map(makeMove).join(' '));
    expect(new Set(every).size).toBe(every.length);
    expect(new Set(every.map((line) => line.split(' ')[0]))).toEqual(
      new Set(['G@c1', 'G@a3', 'G@e3', 'G@c5']),
    );
    for (let seed = 0; seed < 4; seed++)
      expect(every).toContain(soundOpening(seededRandom(seed)).moves.map(makeMove).join(' '));
  });

  it('the goats search with their own weights', () => {
    expect(GOAT_WEIGHTS).not.toEqual(DEFAULT_WEIGHTS);
  });
});

describe('goats on open lines', () => {
  it('counts the goats between a point free of goats and an empty one, on a line', () => {
    const { jumpOverBetween } = GEOMETRIES.alquerque;
    const points = fc.record({
      tigers: fc.uniqueArray(fc.integer({ min: 0, max: POINT_COUNT - 1 }), { minLength: 4, maxLength: 4 }),
      goats: fc.array(fc.boolean(), { minLength: POINT_COUNT, maxLength: POINT_COUNT }),
      goatToMove: fc.boolean(),
    });
    fc.assert(
      fc.property(points, ({ tigers, goats, goatToMove }) => {
        let onBoard = 0;
        const cell = (p: number) => {
          if (tigers.includes(p)) return 'T';
          if (!goats[p] || onBoard === 20) return '1';
          onBoard++;
          return 'G';
        };
        const rows = [4, 3, 2, 1, 0].map((r) =>
          [0, 1, 2, 3, 4]
            .map((c) => cell(r * 5 + c))
            .join('')
            .replace(/1+/g, (run) => String(run.length)),
        );
        const game = gameAt('bagh-chal', `${rows.join('/')} ${goatToMove ? 'g' : 't'} ${20 - onBoard} 0`);
        const board = new SearchBoard(game.variant, game.options, game.position);
        const isGoat = (p: number) => ((board.goatMask >>> p) & 1) === 1;
        const exposed = new Set<number>();
        for (let from = 0; from < POINT_COUNT; from++)
          for (let land = 0; land < POINT_COUNT; land++) {
            const over = jumpOverBetween[from * POINT_COUNT + land]!;
            if (over >= 0 && !isGoat(from) && isGoat(over) && ((board.emptyMask >>> land) & 1) === 1)
              exposed.add(over);
          }
        expect(exposedGoats(board)).toBe(exposed.size);
      }),
      { numRuns: 3000, seed: 21 },
    );
  });
});

describe('goats short of safe moves (issue 21: max lost as goats in the sliding phase)', () => {
  const cramped = (position: string) => {
    const game = gameAt('bagh-chal', position);
    return goatsCramped(new SearchBoard(game.variant, game.options, game.position));
  };

  it('counts the safe goat moves left after the tigers’ most cramping step', () => {
    // c4-c5 leaves the goats one empty point, c4, and either goat stepping in opens a jump.
    expect(cramped('GG1GG/GGTTG/GTGTG/GGGGG/GGGGG t 0 0')).toBe(SPARE_SAFE_MOVES);
    expect(cramped('GGTGG/GG1TG/GTGTG/GGGGG/GGGGG g 0 0')).toBe(SPARE_SAFE_MOVES);
    // With goats in hand a placement is always at hand.
    expect(cramped('T3T/5/5/1G3/T3T g 19 0')).toBe(0);
  });

  /** goatsCramped by playing the moves out on the board: the definition the masks must match. */
  function crampedByMoves(board: SearchBoard): number {
    const safeSteps = (): number => {
      const moves = new Int32Array(MAX_MOVES);
      let safe = 0;
      for (let i = 0, count = board.generatePacked(moves, 0); i < count; i++) {
        board.makePacked(moves[i]!);
        if (scanCaptures(board).threatened === 0) safe++;
        board.unmakePacked(moves[i]!);
      }
      return Math.min(safe, SPARE_SAFE_MOVES);
    };
    if (board.goatToMove) return SPARE_SAFE_MOVES - safeSteps();
    const moves = new Int32Array(MAX_MOVES);
    let fewest = SPARE_SAFE_MOVES;
    for (let i = 0, count = board.generatePacked(moves, 0); i < count; i++) {
      if ((moves[i]! & 3) !== 1) continue; // the tigers' steps; their jumps are captures
      board.makePacked(moves[i]!);
      fewest = Math.min(fewest, safeSteps());
      board.unmakePacked(moves[i]!);
    }
    return SPARE_SAFE_MOVES - fewest;
  }

  it.each([1, 2, 3, 4, 5])('matches the moves played out, %i empty points', (empty) => {
    const seen = new Set<number>();
    fc.assert(
      fc.property(crowdedPoints(empty), ({ points, goatToMove }) => {
        const game = gameAt('bagh-chal', crowdedPosition(points.slice(0, 4), points.slice(4), goatToMove));
        const board = new SearchBoard(game.variant, game.options, game.position);
        const count = goatsCramped(board);
        seen.add(count);
        expect(count).toBe(crampedByMoves(board));
      }),
      { numRuns: 3000, seed: empty },
    );
    // Both ends of the scale came up: the property was not checked on trivial positions only.
    expect(seen).toContain(0);
    expect(seen).toContain(SPARE_SAFE_MOVES);
  });

  // Positions of bench games where the goats' max on 50k nodes played a move the tablebase loses
  // (before crampedGoats) and the one move it keeps the draw with.
  it.each([
    ['GGGGG/GG1GG/G1T1T/GT2G/GGGTG g 0 4', 'd4-c4', 'b4-c4 lost in 14 plies'],
    ['GGTGG/GG1GG/GGGTG/1TT1G/GGG1G g 0 3', 'c3-c4', 'e1-d1 lost in 16 plies'],
  ])('in %s keeps the draw with %s (%s)', (position, keeps) => {
    const game = gameAt('bagh-chal', position);
    const result = new Searcher().search(game, {
      ...LEVEL_SETTINGS.max.limits,
      timeMs: undefined,
      maxNodes: 50_000,
    });
    expect(makeMove(result.move!)).toBe(keeps);
  });
});
