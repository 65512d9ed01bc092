import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Game, legalMoves, play, sameMove } from './game.js';
import { makePoint, POINT_COUNT, parsePoint } from './geometry.js';
import { makeMove, parseMove } from './notation/move.js';
import { explainMove, explainMoveText, explainPoints, explainTap } from './refusal.js';
import { gameOf } from './test-helpers.js';
import { type Options, VARIANTS, type Variant } from './types.js';

const pt = (text: string): number => parsePoint(text)!;

describe('explainMoveText: why a typed move is refused', () => {
  const start = gameOf('bagh-chal');
  const tigersToMove = gameOf('bagh-chal', ['G@b3']);

  it('a legal move has no refusal', () => {
    expect(explainMoveText(start, 'G@c3', 'goat')).toBeNull();
    expect(explainMoveText(tigersToMove, 'a1-b2', 'tiger')).toBeNull();
    expect(explainMoveText(gameOf('bagh-chal', ['G@b2']), 'a1xc3')).toBeNull();
  });

  it('bad format: not move text at all', () => {
    expect(explainMoveText(start, 'zz', 'goat')).toEqual({ kind: 'bad-format' });
    expect(explainMoveText(start, 'a1-b2-c3', 'goat')).toEqual({ kind: 'bad-format' });
    // Legal as the points say, but a jump written as a step.
    expect(explainMoveText(gameOf('bagh-chal', ['G@b2']), 'a1-c3')).toEqual({ kind: 'bad-format' });
  });

  it('not your turn, naming whose turn it is', () => {
    expect(explainMoveText(start, 'a1-a2', 'tiger')).toEqual({ kind: 'not-your-turn', toMove: 'goat' });
    // Without a seat: a tiger's move while the goats are to move.
    expect(explainMoveText(start, 'a1-a2')).toEqual({ kind: 'not-your-turn', toMove: 'goat' });
    expect(explainMoveText(tigersToMove, 'G@c3')).toEqual({ kind: 'not-your-turn', toMove: 'tiger' });
  });

  it('no piece of yours there', () => {
    expect(explainMoveText(tigersToMove, 'c3-c4', 'tiger')).toEqual({
      kind: 'no-piece',
      side: 'tiger',
      at: pt('c3'),
    });
    expect(explainMoveText(tigersToMove, 'b3-c3', 'tiger')).toEqual({
      kind: 'no-piece',
      side: 'tiger',
      at: pt('b3'),
    });
  });

  it('destination occupied', () => {
    expect(explainMoveText(gameOf('bagh-chal', ['G@b2']), 'a1-b2', 'tiger')).toEqual({
      kind: 'occupied',
      at: pt('b2'),
    });
    expect(explainMoveText(start, 'G@a1', 'goat')).toEqual({ kind: 'occupied', at: pt('a1') });
  });

  it('not along a line (R3): a4-c2 is well formed but joins no line', () => {
    const game = gameOf('bagh-chal', [], {}, '5/T4/5/5/5 t 0 0');
    expect(explainMoveText(game, 'a4-c2', 'tiger')).toEqual({
      kind: 'not-a-line',
      from: pt('a4'),
      to: pt('c2'),
    });
    expect(explainMoveText(tigersToMove, 'a1-b3', 'tiger')).toEqual({
      kind: 'not-a-line',
      from: pt('a1'),
      to: pt('b3'),
    });
  });

  it('a jump with no goat to capture', () => {
    expect(explainMoveText(tigersToMove, 'a5-c3', 'tiger')).toEqual({
      kind: 'nothing-to-jump',
      from: pt('a5'),
      over: pt('b4'),
      to: pt('c3'),
    });
    // A tiger never jumps a tiger (R12).
    const game = gameOf('bagh-chal', [], {}, '5/5/5/5/TT3 t 0 0');
    expect(explainMoveText(game, 'a1xc1', 'tiger')).toMatchObject({
      kind: 'nothing-to-jump',
      over: pt('b1'),
    });
  });

  it('R11 placement phase: goats are placed, not moved; and not placed once the hand is empty', () => {
    const placing = gameOf('bagh-chal', ['G@c3', 'a1-a2']);
    expect(explainMoveText(placing, 'c3-c4', 'goat')).toEqual({ kind: 'must-place', inHand: 19 });
    const moving = gameOf('bagh-chal', [], {}, 'T4/5/5/5/3G1 g 0 0');
    expect(explainMoveText(moving, 'G@c3', 'goat')).toEqual({ kind: 'nothing-to-place' });
    expect(explainMoveText(gameOf('bagh-guti'), 'G@a1', 'goat')).toEqual({
      kind: 'not-your-turn',
      toMove: 'tiger',
    });
  });

  it('tigers never place, goats never jump, one jump per turn', () => {
    expect(explainMoveText(tigersToMove, 'G@c3', 'tiger')).toEqual({ kind: 'tigers-never-place' });
    const moving = gameOf('bagh-chal', [], {}, 'T4/5/5/5/3G1 g 0 0');
    expect(explainMoveText(moving, 'd1xd3', 'goat')).toEqual({ kind: 'goats-never-jump' });
    const double = gameOf('bagh-chal', [], {}, 'T4/G4/5/G4/5 t 0 0');
    expect(explainMoveText(double, 'a5xa3xa1', 'tiger')).toEqual({ kind: 'one-jump-per-turn' });
  });

  it('the game is over', () => {
    expect(explainMoveText(gameOf('bagh-chal', [], {}, 'TGG2/GG3/G1G2/5/5 t 0 0'), 'a5-b5')).toEqual({
      kind: 'game-over',
    });
  });

  it('R13: names the ply whose position the move would repeat', () => {
    const start13 = 'T4/5/5/5/3G1 t 0 0';
    const back = gameOf('bagh-chal', ['a5-b5', 'd1-d2', 'b5-a5'], {}, start13);
    expect(explainMoveText(back, 'd2-d1', 'goat')).toEqual({ kind: 'repeats', ply: 0 });
    const tigers = gameOf('bagh-chal', ['a5-b5', 'd1-d2', 'b5-b4', 'd2-d1'], {}, start13);
    expect(explainMoveText(tigers, 'b4-b5', 'tiger')).toEqual({ kind: 'repeats', ply: 1 });
  });
});

describe('explainPoints and explainTap: a board’s taps', () => {
  it('a from/to selection is a step between neighbours, else a jump', () => {
    const game = gameOf('bagh-chal', ['G@b2']);
    expect(explainPoints(game, pt('a1'), pt('c3'), 'tiger')).toBeNull();
    expect(explainPoints(game, pt('a1'), pt('b2'), 'tiger')).toEqual({ kind: 'occupied', at: pt('b2') });
    expect(explainPoints(game, pt('e1'), pt('c3'), 'tiger')).toMatchObject({ kind: 'nothing-to-jump' });
  });

  it('a first tap: a placement, a piece that can move, or why not', () => {
    const start = gameOf('bagh-chal');
    expect(explainTap(start, pt('c3'), 'goat')).toBeNull();
    expect(explainTap(start, pt('a1'), 'goat')).toEqual({ kind: 'occupied', at: pt('a1') });
    expect(explainTap(start, pt('c3'), 'tiger')).toEqual({ kind: 'not-your-turn', toMove: 'goat' });
    expect(explainTap(gameOf('bagh-chal', ['G@c3', 'a1-a2']), pt('c3'), 'goat')).toEqual({
      kind: 'must-place',
      inHand: 19,
    });
    const stuck = gameOf('bagh-chal', [], {}, 'GT3/TT3/5/5/4G g 0 0');
    expect(explainTap(stuck, pt('a5'), 'goat')).toEqual({ kind: 'no-move-from', at: pt('a5') });
    expect(explainTap(stuck, pt('e1'), 'goat')).toBeNull();
    expect(explainTap(stuck, pt('c3'), 'goat')).toEqual({ kind: 'no-piece', side: 'goat', at: pt('c3') });
    expect(explainTap(stuck, pt('b4'))).toEqual({ kind: 'not-your-turn', toMove: 'goat' });
  });
});

const CONFIGS: ReadonlyArray<[Variant, Partial<Options>]> = [
  ...VARIANTS.map((v): [Variant, Partial<Options>] => [v, {}]),
  ['bagh-guti', { goatsFirst: true, multiJump: true, noRepeat: true }],
];

const anyMove = fc.oneof(
  fc.nat(POINT_COUNT - 1).map((p) => `G@${makePoint(p)}`),
  fc
    .tuple(fc.nat(POINT_COUNT - 1), fc.nat(POINT_COUNT - 1))
    .map(([a, b]) => `${makePoint(a)}${makePoint(b)}`),
);

describe('explainMove agrees with the rules (fast-check)', () => {
  for (const [variant, options] of CONFIGS) {
    it(`${variant} ${JSON.stringify(options)}: legal moves have no refusal, illegal ones a specific reason`, () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.nat(), anyMove), { minLength: 1, maxLength: 120 }), (steps) => {
          let game: Game = gameOf(variant, [], options);
          for (const [pick, text] of steps) {
            const moves = legalMoves(game);
            for (const move of moves) expect(explainMove(game, move)).toBeNull();
            const parsed = parseMove(text);
            if (parsed.ok && !moves.some((m) => sameMove(m, parsed.value))) {
              const refusal = explainMove(game, parsed.value);
              expect(refusal).not.toBeNull();
              // Single moves always get a named reason; R13 exactly when play says so.
              expect(refusal?.kind).not.toBe('illegal');
              const played = play(game, parsed.value);
              expect(played.ok).toBe(false);
              if (!played.ok)
                expect(played.error.code === 'ERR_REPETITION').toBe(refusal?.kind === 'repeats');
            }
            if (moves.length === 0) break;
            const next = play(game, moves[pick % moves.length]!);
            if (!next.ok) throw new Error(`${makeMove(moves[pick % moves.length]!)}: ${next.error.message}`);
            game = next.value;
          }
        }),
        { numRuns: 60 },
      );
    });
  }
});
