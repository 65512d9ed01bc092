import * as rules from '@bagh/rules';
import { describe, expect, it, vi } from 'vitest';
import { applyChange } from '../src/rooms/changes.js';
import { type Command, reduce } from '../src/rooms/reducer.js';
import { newRoomState, type RoomState } from '../src/rooms/state.js';
import { hashSeatToken } from '../src/rooms/tokens.js';
import { BAGH_CHAL_TIGER_WIN } from './lines.js';

// Counts the rules' plays: `play` (the judgement) and `playMoveText` (a change applied).
vi.mock('@bagh/rules', async (original) => {
  const actual = await original<typeof rules>();
  return { ...actual, play: vi.fn(actual.play), playMoveText: vi.fn(actual.playMoveText) };
});

const GOAT_HASH = hashSeatToken('goat-token-goat-token-goat-token');
const TIGER_HASH = hashSeatToken('tiger-token-tiger-token-tiger-tok');

function run(state: RoomState, command: Command): RoomState {
  const result = reduce(state, command);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.state;
}

describe('room reducer: a move is played once', () => {
  it('the judged game is the game the change leaves; a change applied elsewhere is played', () => {
    let state = newRoomState('room-once', 0, {
      variant: 'bagh-chal',
      options: {},
      creator: { side: 'goat', tokenHash: GOAT_HASH },
    });
    state = run(state, { type: 'join', socketId: 'g', tokenHash: GOAT_HASH });
    state = run(state, { type: 'claim', socketId: 't', side: 'tiger', tokenHash: TIGER_HASH });
    const plays = vi.mocked(rules.play);
    const texts = vi.mocked(rules.playMoveText);
    plays.mockClear();
    texts.mockClear();
    const before = state;
    const moves = BAGH_CHAL_TIGER_WIN.slice(0, 6);
    moves.forEach((text, ply) => {
      state = run(state, { type: 'move', socketId: ply % 2 === 0 ? 'g' : 't', move: text, ply });
    });
    expect(state.moveTexts).toEqual(moves);
    expect(plays).toHaveBeenCalledTimes(moves.length);
    expect(texts).not.toHaveBeenCalled();

    // The same change applied to another game (a replay, another node's change) is played there.
    const judged = reduce(before, { type: 'move', socketId: 'g', move: moves[0]!, ply: 0 });
    if (!judged.ok) throw new Error(judged.error.message);
    const [change] = judged.value.changes;
    const created = rules.createGame('bagh-chal');
    if (!created.ok) throw new Error(created.error.message);
    const other = { ...before, game: created.value };
    const replayed = applyChange(other, change!.change, before.version + 1);
    expect(texts).toHaveBeenCalledTimes(1);
    expect(replayed.moveTexts).toEqual([moves[0]]);
    expect(replayed.position).toBe(judged.value.state.position);
  });
});
