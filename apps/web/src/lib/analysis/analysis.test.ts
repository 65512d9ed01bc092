import type { Snapshot } from '@bagh/protocol';
import { createGame, legalMoves, makeMove, playMoveTexts } from '@bagh/rules';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Board from '../board/Board.svelte';
import { type EngineMessage, handleEngineMessage } from '../engine/engine.worker.js';
import type { WorkerLike } from '../engine/engine-client.js';
import { boardModel } from '../game/view.js';
import { snapshotFixture } from '../test-fixtures.js';
import Analysis from '../ui/Analysis.svelte';
import { Analyser, analysisRequest, verdictOf } from './analysis.js';

afterEach(cleanup);

/** The engine's worker, run in this thread: its real message handler, answers delivered async. */
function inThreadWorker(): WorkerLike & { posted: EngineMessage[] } {
  const worker = {
    posted: [] as EngineMessage[],
    onmessage: null as WorkerLike['onmessage'],
    postMessage(message: EngineMessage) {
      worker.posted.push(message);
      const answer = handleEngineMessage(message);
      setTimeout(() => worker.onmessage?.({ data: answer } as MessageEvent), 0);
    },
    terminate() {},
  };
  return worker;
}

const LINE = ['G@c3', 'a1-b2', 'G@a1', 'e5-d4', 'G@e5', 'd4-d3'];

function finished(moves: string[] = LINE): Snapshot {
  const start = createGame('bagh-chal');
  if (!start.ok) throw new Error('no game');
  const played = playMoveTexts(start.value, moves);
  if (!played.ok) throw new Error(played.error.message);
  const { position } = played.value;
  return snapshotFixture({
    roomId: 'room-analysis',
    version: moves.length + 2,
    options: played.value.options,
    position: 'placeholder',
    moves,
    toMove: position.toMove,
    goatsInHand: position.goatsInHand,
    captured: position.goatsCaptured,
    result: { winner: 'tiger', reason: 'resign' },
    seats: { tiger: { taken: true, connected: true, bot: 'casual' }, goat: { taken: true, connected: true } },
  });
}

describe('the engine worker', () => {
  it('finds the winning capture and reports the forced win', () => {
    const answer = handleEngineMessage({
      id: 3,
      kind: 'analyse',
      request: { variant: 'bagh-chal', options: {}, start: 'T3T/5/5/1G3/T3T t 10 4', moves: [], timeMs: 300 },
    });
    expect(answer).toMatchObject({ id: 3, ok: true, reply: { bestMove: 'a1xc3', mateIn: 1 } });
    if (!answer.ok || !('forTigers' in answer.reply)) return;
    expect(verdictOf(answer.reply, 'goat')).toEqual({
      kind: 'win',
      words: 'Tigers win in 1 move',
      goats: -10,
    });
    expect(verdictOf(answer.reply, 'tiger').goats).toBe(10);
  });

  it('knows the end of placement exactly: where the last goat traps the tigers', () => {
    const answer = handleEngineMessage({
      id: 6,
      kind: 'analyse',
      request: {
        variant: 'bagh-chal',
        options: {},
        start: '1GG1T/TGGTG/GGGGG/GGGGG/TGGGG g 1 0',
        moves: [],
        timeMs: 5_000,
        maxDepth: 2, // deeper, the search proves a faster win that gives up a goat first
      },
    });
    expect(answer).toMatchObject({ ok: true, reply: { bestMove: 'G@a5', captureIn: null } });
    if (!answer.ok || !('forTigers' in answer.reply)) throw new Error('no analysis');
    expect(verdictOf(answer.reply, 'goat')).toEqual({
      kind: 'win',
      words: 'Goats trap the tigers in 7 moves',
      goats: 10,
    });
  });

  it('answers an error for moves that do not replay', () => {
    const answer = handleEngineMessage({
      id: 4,
      kind: 'analyse',
      request: { variant: 'bagh-chal', options: {}, moves: ['a1-a2'], timeMs: 50 },
    });
    expect(answer).toMatchObject({ id: 4, ok: false });
  });

  it('plays the computer’s move at a level, a legal one', () => {
    const answer = handleEngineMessage({
      id: 5,
      kind: 'move',
      request: { variant: 'bagh-chal', options: {}, moves: ['G@c3'], level: 'beginner', seed: 7 },
    });
    expect(answer).toMatchObject({ id: 5, ok: true });
    if (!answer.ok || !('move' in answer.reply)) throw new Error('no move');
    const start = createGame('bagh-chal');
    if (!start.ok) throw new Error('no game');
    const game = playMoveTexts(start.value, ['G@c3']);
    if (!game.ok) throw new Error('no game');
    expect(legalMoves(game.value).map(makeMove)).toContain(answer.reply.move);
  });
});

describe('the analysis model', () => {
  it('asks about the replayed position, within the time budget', () => {
    const snapshot = finished();
    expect(analysisRequest(snapshot, 2)).toEqual({
      variant: 'bagh-chal',
      options: snapshot.options,
      moves: ['G@c3', 'a1-b2'],
      timeMs: 500,
    });
    expect(analysisRequest(snapshot, 99).moves).toEqual(LINE);
  });

  const reply = { bestMove: 'G@c3', forTigers: 180, mateIn: null, captureIn: null, depth: 4, nodes: 1 };

  it('says a lead in goats ahead, never as a score; the bar from the side asked', () => {
    expect(verdictOf(reply, 'tiger')).toEqual({
      kind: 'lead',
      words: 'Tigers are about 2 goats ahead',
      goats: 1.5,
    });
    expect(verdictOf(reply, 'goat')).toEqual({
      kind: 'lead',
      words: 'Tigers are about 2 goats ahead',
      goats: -1.5,
    });
    // The start position of Bagh Chal, as the engine sees it: −2.0 was on screen.
    expect(verdictOf({ ...reply, forTigers: 240 }, 'goat').words).toBe('Tigers are about 2 goats ahead');
    expect(verdictOf({ ...reply, forTigers: -100 }, 'goat').words).toBe('Goats are about a goat ahead');
    expect(verdictOf({ ...reply, forTigers: -420 }, 'tiger').words).toBe('Goats are about 4 goats ahead');
    expect(verdictOf({ ...reply, forTigers: 600 }, 'tiger')).toMatchObject({
      words: 'Tigers are far ahead',
      goats: 5,
    });
    expect(verdictOf({ ...reply, forTigers: -5000 }, 'tiger')).toMatchObject({
      words: 'Goats are far ahead',
      goats: -10,
    });
  });

  it('calls a position near 0 even, either way', () => {
    for (const forTigers of [0, 5, -48, 59, -59])
      expect(verdictOf({ ...reply, forTigers }, 'goat'), String(forTigers)).toMatchObject({
        kind: 'even',
        words: 'Even: neither side is ahead',
      });
    expect(verdictOf({ ...reply, forTigers: 60 }, 'goat').kind).toBe('lead');
  });

  it('says a forced capture and a forced win in moves of the side that gets there', () => {
    expect(verdictOf({ ...reply, captureIn: 3 }, 'goat')).toEqual({
      kind: 'capture',
      words: 'Tigers take a goat in 2 moves',
      goats: -1.5,
    });
    expect(verdictOf({ ...reply, captureIn: 1 }, 'goat').words).toBe('Tigers take a goat in 1 move');
    expect(verdictOf({ ...reply, forTigers: 99_995, mateIn: 5 }, 'goat').words).toBe('Tigers win in 3 moves');
    expect(verdictOf({ ...reply, forTigers: -99_996, mateIn: -4 }, 'tiger')).toEqual({
      kind: 'win',
      words: 'Goats trap the tigers in 2 moves',
      goats: -10,
    });
    expect(verdictOf({ ...reply, forTigers: -99_999, mateIn: -1 }, 'goat').words).toBe(
      'Goats trap the tigers in 1 move',
    );
  });

  it('says a finished game’s result as its result (the engine’s 100000 was +833.3)', () => {
    const ended = { ...reply, bestMove: null, forTigers: 100_000 };
    expect(verdictOf(ended, 'tiger')).toEqual({ kind: 'over', words: 'Tigers have won', goats: 10 });
    expect(verdictOf({ ...ended, forTigers: -100_000 }, 'tiger').words).toBe('Goats have won');
    expect(verdictOf(ended, 'goat', { winner: 'tiger', reason: 'captures' })).toEqual({
      kind: 'over',
      words: 'Tigers win — enough goats captured',
      goats: -10,
    });
    // A resignation ends a game the engine still scores: the result is what is said.
    expect(verdictOf(reply, 'goat', { winner: 'goat', reason: 'resign' })).toMatchObject({
      kind: 'over',
      words: 'Goats win — resignation',
    });
    expect(verdictOf(reply, 'goat', { winner: null, reason: 'agreement' })).toMatchObject({ goats: 0 });
  });

  it('shows no number that is a score', () => {
    const replies = [0, 35, -240, 1000, -3000, 100_000].flatMap((forTigers) => [
      { ...reply, forTigers },
      { ...reply, forTigers, captureIn: 4 },
    ]);
    for (const one of replies)
      for (const view of ['goat', 'tiger'] as const)
        expect(verdictOf(one, view).words).not.toMatch(/\d\.\d|[+−-]\d/);
  });

  it('asks the worker once per position', async () => {
    const worker = inThreadWorker();
    const analyser = new Analyser(() => worker);
    const request = analysisRequest(finished(), 3, 100);
    const first = await analyser.analyse(request);
    const again = await analyser.analyse(request);
    expect(again).toBe(first);
    expect(worker.posted).toHaveLength(1);
    const start = createGame('bagh-chal');
    if (!start.ok) throw new Error('no game');
    const game = playMoveTexts(start.value, LINE.slice(0, 3));
    if (!game.ok) throw new Error('no game');
    expect(legalMoves(game.value).map(makeMove)).toContain(first.bestMove);
  });
});

describe('the Analyse panel', () => {
  it('shows the evaluation and best move of the shown position, and hands the move to the board', async () => {
    const worker = inThreadWorker();
    const onbest = vi.fn();
    const snapshot = finished();
    const { container, getByRole } = render(Analysis, {
      game: snapshot,
      ply: 4,
      initialView: 'goat',
      onbest,
      analyser: new Analyser(() => worker),
    });
    expect(container.querySelector('[data-analysis="off"]')).not.toBeNull();
    await fireEvent.click(getByRole('button', { name: 'Analyse' }));
    await waitFor(() => expect(container.querySelector('[data-analysis="ready"]')).not.toBeNull(), {
      timeout: 5000,
    });
    const best = container.querySelector('[data-best]')?.getAttribute('data-best') ?? '';
    expect(best).toMatch(/^G@/);
    expect(onbest).toHaveBeenLastCalledWith(best);
    expect(worker.posted[0]?.request.moves).toEqual(LINE.slice(0, 4));
    const goatView = Number(container.querySelector('[data-goats]')?.getAttribute('data-goats'));
    expect(container.querySelector('.analysis')?.textContent).not.toMatch(/\d\.\d/);
    await fireEvent.change(getByRole('combobox', { name: 'Evaluation seen from' }), {
      target: { value: 'tiger' },
    });
    const tigerView = Number(container.querySelector('[data-goats]')?.getAttribute('data-goats'));
    expect(tigerView + goatView).toBe(0);

    // The board draws the hint it is given.
    const model = boardModel({ ...snapshot, position: 'T3T/5/5/5/T3T g 20 0' }, 'goat', false);
    const parsed = { kind: 'place', to: 12 } as const;
    const board = render(Board, { model: { ...model!, hint: parsed } });
    expect(board.container.querySelector('[data-hint="G@c3"]')).not.toBeNull();
  });
});
