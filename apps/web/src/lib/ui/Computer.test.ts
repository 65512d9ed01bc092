import type { BotMoveReply, BotMoveRequest } from '@bagh/engine';
import { createGame, legalMoves, makeMove, playMoveTexts } from '@bagh/rules';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { OfflineGame } from '../offline/offline-game.svelte.js';
import Computer from './Computer.svelte';

afterEach(cleanup);

/** The computer: always the first legal move, at once. */
const firstMove = {
  async move(request: BotMoveRequest): Promise<BotMoveReply> {
    const start = createGame(request.variant, request.options);
    if (!start.ok) throw new Error('no game');
    const game = playMoveTexts(start.value, request.moves);
    if (!game.ok) throw new Error(game.error.message);
    return { move: makeMove(legalMoves(game.value)[0]!), depth: 1, nodes: 1 };
  },
};

const moveTexts = (c: HTMLElement): string[] =>
  [...c.querySelectorAll('.moves .move')].map((e) => e.textContent!);
const status = (c: HTMLElement): string | null | undefined => c.querySelector('[data-status]')?.textContent;

describe('the offline page', () => {
  it('starts a game from the form, plays by clicks, takes back, resigns and starts again', async () => {
    const offline = new OfflineGame({ computer: firstMove, store: null, minReplyMs: 0 });
    const { container, getByRole, getByText } = render(Computer, { offline });

    // No game yet: the form, the Bagh Chal goats against the beginner by default.
    expect(container.querySelector('[data-offline-setup]')).not.toBeNull();
    await fireEvent.click(getByText('Bagh Chal', { exact: true }));
    await fireEvent.click(getByRole('button', { name: 'Start the game' }));
    expect(status(container)).toBe('Your turn — goats to move');
    expect(container.querySelector('[data-opponent="bot"]')?.textContent).toBe(
      'Opponent: Computer · beginner',
    );

    await fireEvent.click(container.querySelector('[data-point="c3"]')!);
    await waitFor(() => expect(moveTexts(container)).toHaveLength(2));
    expect(moveTexts(container)[0]).toBe('G@c3');
    expect(status(container)).toBe('Your turn — goats to move');

    await fireEvent.click(getByRole('button', { name: 'Undo' }));
    expect(moveTexts(container)).toEqual([]);
    expect((getByRole('button', { name: 'Undo' }) as HTMLButtonElement).disabled).toBe(true);

    await fireEvent.click(container.querySelector('[data-point="a2"]')!);
    await waitFor(() => expect(moveTexts(container)).toHaveLength(2));
    await fireEvent.click(getByRole('button', { name: 'Resign' }));
    await fireEvent.click(getByRole('button', { name: 'Yes, resign' }));
    expect(status(container)).toBe('Tigers win — resignation');
    expect(container.querySelector('[data-replay="2"]')).not.toBeNull();
    expect(container.querySelector('[data-analysis="off"]')).not.toBeNull();

    // A new game offers the last one's settings; back to the game, or a new one as the tigers.
    await fireEvent.click(getByRole('button', { name: 'New game' }));
    await fireEvent.click(getByRole('button', { name: 'Back to the game' }));
    expect(status(container)).toBe('Tigers win — resignation');
    await fireEvent.click(getByRole('button', { name: 'New game' }));
    await fireEvent.click(getByText('Tigers', { exact: true }));
    await fireEvent.click(getByRole('button', { name: 'Start the game' }));
    // The goats (the computer) open; then it is the tigers' turn.
    await waitFor(() => expect(status(container)).toBe('Your turn — tigers to move'));
    expect(moveTexts(container)).toHaveLength(1);
    expect(container.querySelector('svg.board')?.getAttribute('data-flipped')).toBe('true');
  });

  it('plays a timed game: the clocks show, the player’s runs, and the choice is offered again', async () => {
    const offline = new OfflineGame({ computer: firstMove, store: null, minReplyMs: 0 });
    const { container, getByRole, getByLabelText } = render(Computer, { offline });
    await fireEvent.click(getByLabelText('Clock'));
    await fireEvent.input(container.querySelector('input[name="minutes"]')!, { target: { value: '2' } });
    await fireEvent.input(container.querySelector('input[name="increment"]')!, { target: { value: '1' } });
    await fireEvent.click(getByRole('button', { name: 'Start the game' }));
    expect(offline.clock?.control).toEqual({ initialMs: 120_000, incrementMs: 1_000 });
    const shown = (side: string) => container.querySelector(`[data-clock="${side}"] .time`)?.textContent;
    expect([shown('tiger'), shown('goat')]).toEqual(['2:00', '2:00']);

    await fireEvent.click(container.querySelector('[data-point="c3"]')!);
    await waitFor(() => expect(moveTexts(container)).toHaveLength(2));
    expect(container.querySelector('[data-clock="goat"]')?.classList.contains('running')).toBe(true);
    await fireEvent.click(getByRole('button', { name: 'New game' }));
    // The game's clock runs on while the form is open: shown there too.
    expect(container.querySelector('[data-game-goes-on] [data-clock="goat"].running')).not.toBeNull();
    expect((getByLabelText('Clock') as HTMLInputElement).checked).toBe(true);
    expect((container.querySelector('input[name="minutes"]') as HTMLInputElement).value).toBe('2');
  });
});
