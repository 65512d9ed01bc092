import { gameFromMoves, parsePoint } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.svelte.js';
import { tapRefusal, typedRefusal } from './refusals.js';

const game = (moves: string[]) => {
  const made = gameFromMoves({ variant: 'bagh-chal', options: {}, moves });
  if (!made.ok) throw new Error(made.error.message);
  return made.value;
};
const at = (p: string) => parsePoint(p)!;

describe('refusals in words', () => {
  it('an out-of-turn tap says whose turn it is; a watcher is told nothing', () => {
    expect(tapRefusal(game([]), 'tiger', { at: at('a1'), from: null })).toBe(
      'Not your turn: the goats are to move.',
    );
    expect(tapRefusal(game([]), null, { at: at('a1'), from: null })).toBeNull();
  });

  it('a tap from a selected piece to a point it cannot reach', () => {
    expect(tapRefusal(game(['G@c3']), 'tiger', { at: at('b3'), from: at('a1') })).toBe(
      'No line joins a1 to b3: pieces step to a neighbouring point, or tigers jump straight over one.',
    );
    expect(tapRefusal(game(['G@c3']), 'tiger', { at: at('a3'), from: at('a1') })).toBe(
      'There is no goat on a2 to jump over.',
    );
    expect(tapRefusal(game(['G@c3']), 'tiger', { at: at('c3'), from: at('a1') })).toBe('c3 is not empty.');
    expect(tapRefusal(game(['G@c3']), 'tiger', { at: at('b2'), from: at('a1') })).toBeNull();
  });

  it('a typed move: null when it may be sent', () => {
    expect(typedRefusal(game([]), 'goat', 'c3')).toBeNull();
    expect(typedRefusal(game(['G@c3']), 'tiger', 'G@d4')).toBe('Tigers are never placed: move a tiger.');
  });

  it('in the page’s language, with its digits', async () => {
    await i18n.set('ne');
    try {
      expect(tapRefusal(game(['G@c3']), 'tiger', { at: at('c3'), from: at('a1') })).toBe('c3 खाली छैन।');
      expect(typedRefusal(game(['G@c3', 'a1-b1']), 'goat', 'c3-c4')).toBe(
        'पहिले बाख्रा राख्नुहोस्: सबै बाख्रा राखिसकेपछि मात्र बाख्रा सर्छन् (हातमा अझै १९)।',
      );
    } finally {
      await i18n.set('en');
    }
  });
});
