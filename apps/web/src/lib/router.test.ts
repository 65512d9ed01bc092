import { describe, expect, it } from 'vitest';
import { matchRoute } from './router.svelte.js';

describe('routes', () => {
  it('knows the home, live, games, computer and room pages', () => {
    expect(matchRoute('/')).toEqual({ page: 'home' });
    expect(matchRoute('/live')).toEqual({ page: 'live' });
    expect(matchRoute('/games')).toEqual({ page: 'games' });
    expect(matchRoute('/games/')).toEqual({ page: 'games' });
    expect(matchRoute('/computer')).toEqual({ page: 'computer' });
    expect(matchRoute('/computer/')).toEqual({ page: 'computer' });
    expect(matchRoute('/r/abc_D-9')).toEqual({ page: 'room', roomId: 'abc_D-9' });
    expect(matchRoute('/computers')).toEqual({ page: 'home' });
    expect(matchRoute('/r/bad id')).toEqual({ page: 'home' });
  });
});
