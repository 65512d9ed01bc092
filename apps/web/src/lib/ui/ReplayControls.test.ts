import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import ReplayControls from './ReplayControls.svelte';

afterEach(cleanup);

const moves = ['G@c3', 'a1-b1', 'G@d3'];
const shown = (ply: number): string | null | undefined =>
  render(ReplayControls, { ply, total: moves.length, moves, onstep: () => {} }).container.querySelector(
    '.shown',
  )?.textContent;

describe('ReplayControls', () => {
  it('names the position shown as the move list numbers it, not as a ply count', () => {
    expect(shown(0)).toBe('Start');
    expect(shown(1)).toBe('1. G@c3');
    expect(shown(2)).toBe('1. … a1-b1');
    expect(shown(3)).toBe('2. G@d3');
  });
});
