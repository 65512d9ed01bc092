import { cleanup, fireEvent, render, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Home from './Home.svelte';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const refusal = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

async function openRecord(container: HTMLElement): Promise<string | null | undefined> {
  const box = container.querySelector<HTMLTextAreaElement>('#record')!;
  await fireEvent.input(box, { target: { value: '1. G@c3 *' } });
  await fireEvent.submit(box.form!);
  await waitFor(() => expect(container.querySelector('[data-import-error]')).not.toBeNull());
  return container.querySelector('[data-import-error]')?.textContent;
}

describe('the home page, when the server fails', () => {
  it('says a server it cannot reach is unreachable when creating a room', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const { container } = render(Home, { onnavigate: () => {} });
    await fireEvent.submit(container.querySelector('form.panel')!);
    await waitFor(() =>
      expect(container.querySelector('p.error')?.textContent).toBe('The server cannot be reached.'),
    );
  });

  it("shows its own words for a store fault opening a record, not the server's English", async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(refusal(503, 'UNAVAILABLE', 'the game could not be saved or read; try again')),
    );
    const { container } = render(Home, { onnavigate: () => {} });
    expect(await openRecord(container)).toBe(
      'The record could not be opened: The game could not be saved; try again.',
    );
  });

  it("keeps the server's reason when it explains what in the record is wrong", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(refusal(400, 'BAD_REQUEST', 'move 1: "x9" is not a move')),
    );
    const { container } = render(Home, { onnavigate: () => {} });
    expect(await openRecord(container)).toBe('The record could not be opened: move 1: "x9" is not a move');
  });
});
