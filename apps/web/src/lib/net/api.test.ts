import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorText } from '../game/view.js';
import { createRoom, fetchLive, importRecord } from './api.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('api', () => {
  it('says a server it cannot reach is unreachable, as the room page does (not "the server had a problem")', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const created = await createRoom({ variant: 'bagh-chal', side: 'goat', public: false });
    expect(created).toEqual({
      ok: false,
      error: { code: 'OFFLINE', message: 'The server cannot be reached.' },
    });
    if (!created.ok) expect(errorText(created.error)).toBe('The server cannot be reached.');
    const imported = await importRecord('1. G@c3');
    expect(imported.ok || imported.error.code).toBe('OFFLINE');
  });

  it('takes a proxy’s bare 502–504 (the server behind it is down) as unreachable too', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(new Response('<html>Bad Gateway</html>', { status: 502 })),
    );
    const live = await fetchLive();
    expect(live.ok || live.error.code).toBe('OFFLINE');
  });

  it("keeps the server's own refusal, and a bare 500 as the server's problem", async () => {
    const refusal = { code: 'UNAVAILABLE', message: 'the game could not be saved or read; try again' };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(503, { error: refusal })));
    const imported = await importRecord('1. G@c3');
    expect(imported).toEqual({ ok: false, error: refusal });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('oops', { status: 500 })));
    const live = await fetchLive();
    expect(live.ok || live.error.code).toBe('INTERNAL');
  });
});
