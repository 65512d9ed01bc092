import {
  createGame,
  legalMoves,
  type Move,
  makeMove,
  parsePoint,
  playMoveTexts,
  pointsOf,
} from '@bagh/rules';
import { cleanup, fireEvent, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BoardModel } from '../game/view.js';
import Board from './Board.svelte';

afterEach(cleanup);

function chalModel(texts: string[] = [], over: Partial<BoardModel> = {}): BoardModel {
  const start = createGame('bagh-chal');
  if (!start.ok) throw new Error('no game');
  const played = playMoveTexts(start.value, texts);
  if (!played.ok) throw new Error(played.error.message);
  const game = played.value;
  const last = game.moves.at(-1);
  return {
    kind: 'alquerque',
    tigers: pointsOf(game.position.tigers),
    goats: game.position.goats,
    moves: legalMoves(game),
    lastMove: last ?? null,
    flipped: false,
    viewOnly: false,
    ply: game.moves.length,
    ...over,
  };
}

const point = (c: HTMLElement, name: string): Element => {
  const el = c.querySelector(`[data-point="${name}"]`);
  if (!el) throw new Error(`no point ${name}`);
  return el;
};
const classes = (c: HTMLElement, cls: string): string[] =>
  [...c.querySelectorAll(`.point.${cls}`)].map((e) => e.getAttribute('data-point')!).sort();

describe('Board', () => {
  it('draws 25 points, the R2 lines and the Bagh Chal start (R10)', () => {
    const { container } = render(Board, { model: chalModel() });
    expect(container.querySelectorAll('.point')).toHaveLength(25);
    // alquerque: 40 orthogonal + 16 diagonal segments
    expect(container.querySelectorAll('.lines line')).toHaveLength(56);
    const tigers = [...container.querySelectorAll('[data-piece="tiger"]')].map((e) =>
      e.closest('.point')!.getAttribute('data-point'),
    );
    expect(tigers.sort()).toEqual(['a1', 'a5', 'e1', 'e5']);
    expect(container.querySelectorAll('[data-piece="goat"]')).toHaveLength(0);
    expect(point(container, 'a1').getAttribute('aria-label')).toBe('a1: tiger');
  });

  it('the orthogonal board has no diagonals (R2, Bagh Bandi)', () => {
    const { container } = render(Board, { model: { ...chalModel(), kind: 'orthogonal', moves: [] } });
    expect(container.querySelectorAll('.lines line')).toHaveLength(40);
  });

  it('shows Bagh Guti stack heights', () => {
    const game = createGame('bagh-guti');
    if (!game.ok) throw new Error('no game');
    const model: BoardModel = {
      kind: 'alquerque',
      tigers: [parsePoint('c3')!, parsePoint('c5')!],
      goats: game.value.position.goats,
      moves: [],
      lastMove: null,
      flipped: false,
      viewOnly: true,
      ply: 0,
    };
    const { container } = render(Board, { model });
    const stacks = [...container.querySelectorAll('[data-stack]')].map((e) => e.textContent);
    expect(stacks).toEqual(['5', '5', '5', '5']);
    expect(point(container, 'b2').getAttribute('aria-label')).toBe('b2: stack of 5 goats');
  });

  it('a tap on an empty point places a goat (R11)', async () => {
    const onintent = vi.fn();
    const { container } = render(Board, { model: chalModel(), onintent });
    expect(classes(container, 'placeable')).toHaveLength(21);
    await fireEvent.click(point(container, 'c3'));
    expect(onintent).toHaveBeenCalledTimes(1);
    expect(makeMove(onintent.mock.calls[0]![0] as Move)).toBe('G@c3');
  });

  it('tap-tap moves a tiger and highlights steps and jump landings (R12)', async () => {
    const onintent = vi.fn();
    // goat on b2 next to the a1 tiger; tigers to move
    const { container } = render(Board, { model: chalModel(['G@b2']), onintent });
    expect(classes(container, 'movable')).toEqual(['a1', 'a5', 'e1', 'e5']);
    await fireEvent.click(point(container, 'a1'));
    expect(classes(container, 'selected')).toEqual(['a1']);
    expect(classes(container, 'target')).toEqual(['a2', 'b1', 'c3']);
    expect(classes(container, 'jump')).toEqual(['c3']);
    expect(point(container, 'c3').getAttribute('aria-label')).toContain('jump landing');
    expect(onintent).not.toHaveBeenCalled();
    await fireEvent.click(point(container, 'c3'));
    expect(makeMove(onintent.mock.calls[0]![0] as Move)).toBe('a1xc3');
  });

  it('a tap elsewhere or on the selected piece clears the selection', async () => {
    const onintent = vi.fn();
    const { container } = render(Board, { model: chalModel(['G@b2']), onintent });
    await fireEvent.click(point(container, 'a1'));
    await fireEvent.click(point(container, 'a1'));
    expect(classes(container, 'selected')).toEqual([]);
    await fireEvent.click(point(container, 'e5'));
    await fireEvent.click(point(container, 'c4'));
    expect(classes(container, 'selected')).toEqual([]);
    expect(onintent).not.toHaveBeenCalled();
  });

  it('keyboard Enter on a point acts as a tap', async () => {
    const onintent = vi.fn();
    const { container } = render(Board, { model: chalModel(), onintent });
    await fireEvent.keyDown(point(container, 'b4'), { key: 'Enter' });
    expect(makeMove(onintent.mock.calls[0]![0] as Move)).toBe('G@b4');
  });

  it('viewOnly emits nothing and highlights nothing', async () => {
    const onintent = vi.fn();
    const { container } = render(Board, { model: chalModel(['G@b2'], { viewOnly: true }), onintent });
    await fireEvent.click(point(container, 'a1'));
    await fireEvent.click(point(container, 'c3'));
    expect(onintent).not.toHaveBeenCalled();
    expect(classes(container, 'movable')).toEqual([]);
    expect(classes(container, 'target')).toEqual([]);
    expect(point(container, 'a1').getAttribute('tabindex')).toBe('-1');
  });

  it('marks the last move and fades the captured goat', () => {
    const { container } = render(Board, { model: chalModel(['G@b2', 'a1xc3']) });
    expect(classes(container, 'last-from')).toEqual(['a1']);
    expect(classes(container, 'last-to')).toEqual(['c3']);
    expect(container.querySelector('[data-captured]')?.getAttribute('data-captured')).toBe('b2');
    expect(container.querySelector('.last-path')).not.toBeNull();
  });

  it('flipped rotates the board 180° (a1 drawn top right)', () => {
    const { container } = render(Board, { model: chalModel([], { flipped: true }) });
    expect(point(container, 'a1').getAttribute('transform')).toBe('translate(528 72)');
    expect(point(container, 'e5').getAttribute('transform')).toBe('translate(72 528)');
    cleanup();
    const plain = render(Board, { model: chalModel() });
    expect(point(plain.container, 'a1').getAttribute('transform')).toBe('translate(72 528)');
  });

  it('multi-jump: taps each landing, may stop after any jump (R23 multiJump)', async () => {
    // the board only matches taps against the moves it is handed
    const moves: Move[] = [
      { kind: 'jump', from: parsePoint('a1')!, path: [parsePoint('c1')!] },
      { kind: 'jump', from: parsePoint('a1')!, path: [parsePoint('c1')!, parsePoint('e1')!] },
    ];
    const onintent = vi.fn();
    const model: BoardModel = { ...chalModel(), moves, ply: 3 };
    const { container } = render(Board, { model, onintent });
    await fireEvent.click(point(container, 'a1'));
    await fireEvent.click(point(container, 'c1'));
    expect(onintent).not.toHaveBeenCalled();
    expect(classes(container, 'stop')).toEqual(['c1']);
    expect(classes(container, 'target')).toEqual(['e1']);
    await fireEvent.click(point(container, 'c1'));
    expect(makeMove(onintent.mock.calls[0]![0] as Move)).toBe('a1xc1');
    await fireEvent.click(point(container, 'a1'));
    await fireEvent.click(point(container, 'c1'));
    await fireEvent.click(point(container, 'e1'));
    expect(makeMove(onintent.mock.calls[1]![0] as Move)).toBe('a1xc1xe1');
  });
});
