import { gameFromMoves, parsePoint } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.svelte.js';
import { tapRefusal, typedRefusal } from './refusals.js';

const game = (moves: string[], start?: string) => {
  const made = gameFromMoves({ variant: 'bagh-chal', options: {}, moves, start });
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

  // R13 from a set-up position (all goats placed): tigers move first here.
  const R13_START = 'T4/5/5/5/3G1 t 0 0';
  it('R13 names the earlier position as the move list does: its move number, side and move', () => {
    // 1. a5-b5 d1-d2  2. b5-b4 d2-d1: b4-b5 would bring back the position after 1. a5-b5.
    const tigers = game(['a5-b5', 'd1-d2', 'b5-b4', 'd2-d1'], R13_START);
    expect(typedRefusal(tigers, 'tiger', 'b4-b5')).toBe(
      'Not allowed: it would repeat the position after the tigers’ a5-b5 in move 1 (no position may repeat).',
    );
    // 1. a5-b5 d1-d2  2. b5-a5 d2-d3  3. a5-b5: d3-d2 would bring back the position after 1. … d1-d2.
    const goats = game(['a5-b5', 'd1-d2', 'b5-a5', 'd2-d3', 'a5-b5'], R13_START);
    expect(tapRefusal(goats, 'goat', { at: at('d2'), from: at('d3') })).toBe(
      'Not allowed: it would repeat the position after the goats’ d1-d2 in move 1 (no position may repeat).',
    );
    const back = game(['a5-b5', 'd1-d2', 'b5-a5'], R13_START);
    expect(typedRefusal(back, 'goat', 'd2-d1')).toBe(
      'Not allowed: it would repeat the starting position (no position may repeat).',
    );
  });

  it('in the page’s language, with its digits', async () => {
    await i18n.set('ne');
    try {
      expect(tapRefusal(game(['G@c3']), 'tiger', { at: at('c3'), from: at('a1') })).toBe('c3 खाली छैन।');
      expect(typedRefusal(game(['G@c3', 'a1-b1']), 'goat', 'c3-c4')).toBe(
        'पहिले बाख्रा राख्नुहोस्: सबै बाख्रा राखिसकेपछि मात्र बाख्रा सर्छन् (हातमा अझै १९)।',
      );
      const moves = ['a5-b5', 'd1-d2', 'b5-b4', 'd2-d3', 'b4-c4', 'd3-d2'];
      expect(typedRefusal(game(moves, R13_START), 'tiger', 'c4-b4')).toBe(
        'पाइँदैन: यसले चाल २ मा बाघको b5-b4 पछिको स्थिति दोहोर्याउँछ (कुनै स्थिति दोहोर्याउन पाइँदैन)।',
      );
    } finally {
      await i18n.set('en');
    }
  });
});
