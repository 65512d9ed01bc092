import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Board } from './board.js';
import { type Game, historyOf, legalMoves, play, playMoveText } from './game.js';
import { makePoint, POINT_COUNT } from './geometry.js';
import { makeMove } from './notation/move.js';
import { makePosition, parsePosition } from './notation/position.js';
import { makeRecord, parseRecord } from './notation/record.js';
import { gameOf } from './test-helpers.js';
import { type Options, opposite, type Position, VARIANTS, type Variant } from './types.js';

const totalGoats = (p: Position): number =>
  p.goats.reduce((a, b) => a + b, 0) + p.goatsInHand + p.goatsCaptured;

const CONFIGS: ReadonlyArray<[Variant, Partial<Options>]> = [
  ...VARIANTS.map((v): [Variant, Partial<Options>] => [v, {}]),
  ['bagh-guti', { goatsFirst: true, multiJump: true, noRepeat: true }],
  ['bagh-bandi', { multiJump: true, noRepeat: true }],
];

/** Any move text at all, legal or not: placements, steps and jumps between random points. */
const anyMoveText = fc.oneof(
  fc.nat(POINT_COUNT - 1).map((p) => `G@${makePoint(p)}`),
  fc
    .tuple(fc.nat(POINT_COUNT - 1), fc.nat(POINT_COUNT - 1))
    .map(([a, b]) => `${makePoint(a)}${makePoint(b)}`),
  fc
    .tuple(fc.nat(POINT_COUNT - 1), fc.nat(POINT_COUNT - 1), fc.nat(POINT_COUNT - 1))
    .map(([a, b, c]) => `${makePoint(a)}x${makePoint(b)}x${makePoint(c)}`),
);

function checkInvariants(game: Game, initialGoats: number): void {
  const { position } = game;
  expect(totalGoats(position)).toBe(initialGoats);
  const maxHeight = game.variant === 'bagh-chal' ? 1 : Number.POSITIVE_INFINITY;
  const sharedOrOverfull = position.goats.findIndex(
    (goats, p) => (((position.tigers >>> p) & 1) === 1 && goats > 0) || goats > maxHeight,
  );
  expect(sharedOrOverfull).toBe(-1);
  const moves = legalMoves(game);
  if (moves.length === 0) {
    expect(game.outcome).not.toBeNull();
    if (game.outcome?.reason !== 'captures') expect(game.outcome?.winner).toBe(opposite(position.toMove));
  }
  if (game.outcome) expect(moves).toEqual([]);
  const parsed = parsePosition(makePosition(position));
  expect(parsed.ok && parsed.value).toEqual(position);
  const board = new Board(game.variant, game.options, position);
  expect(board.hash).toBe(board.computeHash());
}

describe('random games (fast-check)', () => {
  for (const [variant, options] of CONFIGS) {
    it(`${variant} ${JSON.stringify(options)}: invariants hold at every ply, and play agrees with legalMoves`, {
      timeout: 120_000,
    }, () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(), anyMoveText), { minLength: 1, maxLength: 200, size: 'max' }),
          (choices) => {
            let game = gameOf(variant, [], options);
            const initialGoats = totalGoats(game.position);
            for (const [pick, candidate] of choices) {
              checkInvariants(game, initialGoats);
              const moves = legalMoves(game);
              const legalTexts = new Set(moves.map(makeMove));
              const attempt = playMoveText(game, candidate);
              const parsed = attempt.ok ? makeMove(attempt.value.moves.at(-1)!) : undefined;
              expect(attempt.ok).toBe(parsed !== undefined && legalTexts.has(parsed));
              if (moves.length === 0) break;
              const played = play(game, moves[pick % moves.length]!);
              expect(played.ok).toBe(true);
              if (!played.ok) return;
              game = played.value;
            }
            checkInvariants(game, initialGoats);
            const record = parseRecord(makeRecord(game));
            expect(record.ok).toBe(true);
            if (record.ok) expect(record.value.game.moves.map(makeMove)).toEqual(game.moves.map(makeMove));
          },
        ),
        // 300 random games per configuration (1000 took most of the suite's CPU on a loaded 2-core box).
        { numRuns: 300, seed: 20261130 },
      );
    });
  }

  it('an illegal candidate is rejected and every move not listed is refused', () => {
    const game = gameOf('bagh-chal', ['G@c3']);
    const legal = new Set(legalMoves(game).map(makeMove));
    for (let from = 0; from < POINT_COUNT; from++) {
      for (let to = 0; to < POINT_COUNT; to++) {
        const text = `${makePoint(from)}${makePoint(to)}`;
        const result = playMoveText(game, text);
        const canonical = result.ok ? makeMove(result.value.moves.at(-1)!) : '';
        expect(result.ok, text).toBe(legal.has(canonical));
      }
    }
  });
});

describe('R13 is exact: a hash collision never forbids a legal move', () => {
  it('a history entry with the same hash but another position does not bar the move', () => {
    const start = 'T4/5/5/5/3G1 t 0 0';
    const game = gameOf('bagh-chal', [], {}, start);
    const board = new Board(game.variant, game.options, game.position);
    const move = legalMoves(game).find((m) => makeMove(m) === 'a5-b5')!;
    board.make(move);
    // Plant an impostor: the same hash as the position after a5-b5, with a different exact key.
    historyOf(game).add(board.hash, 'not-this-position');
    expect(legalMoves(gameOf('bagh-chal', [], {}, start)).map(makeMove)).toContain('a5-b5');
    const freshGame = gameOf('bagh-chal', [], {}, start);
    historyOf(freshGame).add(board.hash, 'not-this-position');
    expect(play(freshGame, move).ok).toBe(true);
    historyOf(freshGame).add(board.hash, board.exactKey());
    const barred = play(freshGame, move);
    expect(barred.ok).toBe(false);
  });

  it('replaying a game from JSON rebuilds the same history', () => {
    const line = ['a5-b5', 'd1-d2', 'b5-a5'];
    const game = gameOf('bagh-chal', line, {}, 'T4/5/5/5/3G1 t 0 0');
    const copy = JSON.parse(JSON.stringify(game)) as Game;
    expect(legalMoves(copy).map(makeMove)).toEqual(legalMoves(game).map(makeMove));
    expect(legalMoves(copy).map(makeMove)).not.toContain('d2-d1');
  });

  it('playing twice from the same game keeps each line its own history', () => {
    const start = gameOf('bagh-chal', ['a5-b5', 'd1-d2'], {}, 'T4/5/5/5/3G1 t 0 0');
    const a = play(start, legalMoves(start).find((m) => makeMove(m) === 'b5-a5')!);
    const b = play(start, legalMoves(start).find((m) => makeMove(m) === 'b5-c5')!);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(legalMoves(a.value).map(makeMove)).not.toContain('d2-d1');
    expect(legalMoves(b.value).map(makeMove)).toContain('d2-d1');
    expect(legalMoves(start).map(makeMove)).toContain('b5-a5');
  });
});
