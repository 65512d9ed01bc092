/** What anyone may see of a room: its snapshot and its chat, never a token hash. */
import type { ChatChannel, ChatMessage, ClockView, Snapshot } from '@bagh/protocol';
import { clockReadingAt, type Side } from '@bagh/rules';
import { abandonOf, seatConnected, spectatorCount } from './presence.js';
import type { RoomState } from './state.js';

/** The chat a recipient may read: the players' channel, and the spectators' for spectators. */
export function chatFor(state: RoomState, spectator: boolean, limit = 100): ChatMessage[] {
  return state.chat
    .filter((m) => spectator || m.channel === 'players')
    .slice(-limit)
    .map((m) => ({ roomId: state.roomId, ...m }));
}

export const chatAudience = (channel: ChatChannel, roomId: string): string =>
  channel === 'players' ? roomId : `${roomId}:spectators`;

const clockView = (state: RoomState): ClockView | null => {
  if (!state.clock) return null;
  return {
    ...clockReadingAt(state.clock, state.at),
    running: state.result === null ? state.clock.running : null,
  };
};

/** The public view of a room: everything anyone may see, never a token hash. */
export function snapshotOf(state: RoomState): Snapshot {
  const { game } = state;
  const abandon = abandonOf(state);
  const seat = (side: Side) => {
    const held = state.seats[side];
    if (held.bot !== null) return { taken: true, connected: true, bot: held.bot };
    return { taken: held.tokenHash !== null, connected: seatConnected(state, side) };
  };
  return {
    roomId: state.roomId,
    version: state.version,
    variant: state.variant,
    options: { ...state.options },
    position: state.position,
    ...(state.init.imported?.start ? { start: state.init.imported.start } : {}),
    moves: state.moveTexts as string[],
    toMove: game.position.toMove,
    goatsInHand: game.position.goatsInHand,
    captured: game.position.goatsCaptured,
    result: state.result ? { ...state.result } : null,
    seats: { tiger: seat('tiger'), goat: seat('goat') },
    spectators: spectatorCount(state),
    at: state.at,
    timeControl: state.clock ? { ...state.clock.control } : null,
    clock: clockView(state),
    drawOffer: state.drawOffer,
    rematch: state.rematch
      ? {
          offeredBy: state.rematch.offeredBy,
          ...(state.rematch.roomId ? { roomId: state.rematch.roomId } : {}),
        }
      : null,
    abandon: abandon ? { ...abandon, claimable: state.at >= abandon.claimableAt } : null,
    public: state.public,
    imported: state.imported,
  };
}
