import { TimeControl } from '@bagh/protocol';
import { TIME_CONTROL_LIMITS } from '@bagh/protocol/limits';
import { createGame } from '@bagh/rules';
import { describe, expect, it } from 'vitest';
import { makeSavedGame, parseSavedGame } from './saved-game.js';

const created = createGame('bagh-chal');
if (!created.ok) throw new Error('no game');
const start = created.value;

/** A saved timed game whose headers are replaced by `timeControl` and `clocks`. */
function withHeaders(timeControl: string, clocks: string): string {
  const saved = makeSavedGame({
    game: start,
    player: 'goat',
    level: 'beginner',
    result: null,
    clock: { control: { initialMs: 60_000, incrementMs: 0 }, remaining: { tiger: 60_000, goat: 60_000 } },
  });
  return saved
    .replace('[TimeControl "60000+0"]', `[TimeControl "${timeControl}"]`)
    .replace('[Clocks "60000 60000"]', `[Clocks "${clocks}"]`);
}

describe('a saved game’s clock headers (plain code, no zod)', () => {
  it('reads back what makeSavedGame writes', () => {
    expect(parseSavedGame(withHeaders('300000+3000', '12000 250000'))?.clock).toEqual({
      control: { initialMs: 300_000, incrementMs: 3_000 },
      remaining: { tiger: 12_000, goat: 250_000 },
    });
  });

  it('accepts exactly the time controls the protocol’s schema accepts', () => {
    const { initialMs, incrementMs } = TIME_CONTROL_LIMITS;
    const cases = [
      [initialMs.min - 1, 0],
      [initialMs.min, incrementMs.min],
      [initialMs.max, incrementMs.max],
      [initialMs.max + 1, 0],
      [60_000, incrementMs.max + 1],
    ] as const;
    for (const [initial, increment] of cases) {
      const schema = TimeControl.safeParse({ initialMs: initial, incrementMs: increment }).success;
      const parsed = parseSavedGame(withHeaders(`${initial}+${increment}`, '1000 1000'));
      expect(parsed !== null, `${initial}+${increment}`).toBe(schema);
    }
  });

  it('refuses what is not its strict pattern', () => {
    for (const [control, clocks] of [
      ['60000+0.5', '1000 1000'],
      ['-60000+0', '1000 1000'],
      ['6e4+0', '1000 1000'],
      [' 60000+0', '1000 1000'],
      ['60000+0', '1000'],
      ['60000+0', '1000  1000'],
      ['1234567890+0', '1000 1000'],
    ] as const) {
      expect(parseSavedGame(withHeaders(control, clocks)), `${control} / ${clocks}`).toBeNull();
    }
  });
});
