import { MAX_PLIES } from '@bagh/protocol/limits';
import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameConnection } from '../net/connection.svelte.js';
import { snapshotFixture } from '../test-fixtures.js';
import GameActions from './GameActions.svelte';

afterEach(cleanup);

/** The connection's part the actions read: none of its commands run here. */
const conn = { serverNow: () => 0 } as unknown as GameConnection;

const againstTheComputer = (moves: number) =>
  snapshotFixture({
    moves: Array.from({ length: moves }, () => 'G@c3'),
    seats: { tiger: { taken: true, connected: true, bot: 'casual' }, goat: { taken: true, connected: true } },
  });

const offersDraw = (moves: number): boolean =>
  [
    ...render(GameActions, {
      snapshot: againstTheComputer(moves),
      mine: 'goat',
      conn,
    }).container.querySelectorAll('button'),
  ].some((button) => button.textContent === 'Offer draw');

describe('GameActions', () => {
  it('against the computer offers no draw, but at the most moves a room keeps (where it agrees to one)', () => {
    expect(offersDraw(10)).toBe(false);
    cleanup();
    expect(offersDraw(MAX_PLIES)).toBe(true);
  });
});
