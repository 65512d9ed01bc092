import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Live from './Live.svelte';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets the poll's fetch and the page's update run. */
const settle = () => new Promise((done) => setTimeout(done, 10));

describe('the live games page', () => {
  it('does not say there are no public games while the server cannot be reached', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }); // the 3 s poll, by hand
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(
        new Response(JSON.stringify({ rooms: [] }), { headers: { 'content-type': 'application/json' } }),
      )
      .mockRejectedValue(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetch);
    const { container } = render(Live, { onroom: () => {} });
    await settle();
    expect(container.querySelector('[data-live-empty]')?.textContent).toBe('No public games right now.');

    await vi.advanceTimersByTimeAsync(3000); // the next poll finds no server
    await settle();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(container.querySelector('[data-live-unreachable]')?.textContent).toBe(
      'The server cannot be reached; retrying…',
    );
    expect(container.querySelector('[data-live-empty]')).toBeNull();
  });

  it('says only that the server cannot be reached when it never was (not "Loading…" beside it)', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const { container } = render(Live, { onroom: () => {} });
    await settle();
    expect(container.querySelector('[data-live-unreachable]')).not.toBeNull();
    expect(container.textContent).not.toContain('Loading…');
    expect(container.querySelector('[data-live-empty]')).toBeNull();
  });
});
