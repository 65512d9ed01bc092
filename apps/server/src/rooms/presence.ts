/** Who is in a room: sockets in seats or watching, on this node or (several nodes) on all of them. */
import { SIDES, type Side } from '@bagh/rules';
import { z } from 'zod';
import { otherSide, type PresenceCounts, type RoomState, type SeatState } from './state.js';
import { sameHash } from './tokens.js';

/** Presence across nodes, as stored: counts per place and, per seat, since when it is empty. */
export const PresenceData = z.object({
  tiger: z.number().int().min(0),
  goat: z.number().int().min(0),
  spectators: z.number().int().min(0),
  gone: z.object({ tiger: z.number().nullable(), goat: z.number().nullable() }),
});
export type PresenceData = z.infer<typeof PresenceData>;

/** The stored form of a room's presence across nodes; null on a single node. */
export function presenceDataOf(state: RoomState): PresenceData | null {
  if (state.presence === null) return null;
  return {
    ...state.presence,
    gone: { tiger: state.seats.tiger.goneSince, goat: state.seats.goat.goneSince },
  };
}

export function withPresenceData(state: RoomState, data: PresenceData): RoomState {
  const { gone, ...counts } = data;
  return {
    ...state,
    presence: counts,
    seats: {
      tiger: { ...state.seats.tiger, goneSince: gone.tiger },
      goat: { ...state.seats.goat, goneSince: gone.goat },
    },
  };
}

/** Whether someone holds `side`'s seat from a socket (on any node, when several share the room). */
export function seatConnected(state: RoomState, side: Side): boolean {
  return state.presence ? state.presence[side] > 0 : state.seats[side].sockets.length > 0;
}

/** How many sockets watch the room (on every node, when several share it). */
export function spectatorCount(state: RoomState): number {
  return state.presence ? state.presence.spectators : state.spectators.length;
}

/** This node's sockets per place. */
export function localPresence(state: RoomState): PresenceCounts {
  return {
    tiger: state.seats.tiger.sockets.length,
    goat: state.seats.goat.sockets.length,
    spectators: state.spectators.length,
  };
}

/**
 * Presence across nodes after a command: this node's sockets (already moved by the command) plus
 * `remote`, the other nodes' sockets. A taken seat whose count falls to 0 is gone from now.
 */
export function withClusterPresence(before: RoomState, after: RoomState, remote: PresenceCounts): RoomState {
  const local = localPresence(after);
  const counts: PresenceCounts = {
    tiger: local.tiger + remote.tiger,
    goat: local.goat + remote.goat,
    spectators: local.spectators + remote.spectators,
  };
  const seat = (side: Side): SeatState => {
    const held = after.seats[side];
    if (held.tokenHash === null) return { ...held, goneSince: null };
    if (counts[side] > 0) return { ...held, goneSince: null };
    const was = before.seats[side];
    const wasConnected = seatConnected(before, side) || was.sockets.length > 0;
    return { ...held, goneSince: wasConnected ? after.at : (was.goneSince ?? after.at) };
  };
  return { ...after, presence: counts, seats: { tiger: seat('tiger'), goat: seat('goat') } };
}

/** The seated player gone long enough for the opponent, who is here, to claim (or about to be). */
export function abandonOf(state: RoomState): { side: Side; goneSince: number; claimableAt: number } | null {
  if (state.result !== null || state.imported) return null;
  for (const side of SIDES) {
    const seat = state.seats[side];
    const opponent = state.seats[otherSide(side)];
    if (seat.tokenHash === null || seatConnected(state, side) || seat.goneSince === null) continue;
    if (opponent.tokenHash === null || !seatConnected(state, otherSide(side))) continue;
    return { side, goneSince: seat.goneSince, claimableAt: seat.goneSince + state.abandonGraceMs };
  }
  return null;
}

/** The side a socket holds in this room, or null (spectator or not here). */
export function seatOf(state: RoomState, socketId: string): Side | null {
  for (const side of SIDES) if (state.seats[side].sockets.includes(socketId)) return side;
  return null;
}

/** Whether a seat's stored hash equals a presented one (constant time). */
export const sameHashIn = (stored: string | null, candidate: string): boolean =>
  stored !== null && sameHash(stored, candidate);

/**
 * The seat a token holds: its own or, in a rematch, the one its holder took in the new room (a
 * token of theirs in one of the rooms the rematch follows, `formerTokenHashes`), while that seat
 * is still the one the rematch gave them.
 */
export function sideOfToken(state: RoomState, tokenHash: string): Side | null {
  const own = SIDES.find((side) => sameHashIn(state.seats[side].tokenHash, tokenHash));
  if (own) return own;
  const former = [state.init.creator, state.init.opponent].find((seat) =>
    seat?.formerTokenHashes?.some((hash) => sameHash(hash, tokenHash)),
  );
  return former && sameHashIn(state.seats[former.side].tokenHash, former.tokenHash) ? former.side : null;
}

export const isPresent = (state: RoomState, socketId: string): boolean =>
  seatOf(state, socketId) !== null || state.spectators.includes(socketId);

export function withoutSocket(state: RoomState, socketId: string): RoomState {
  if (!isPresent(state, socketId)) return state;
  const drop = (ids: readonly string[]) => ids.filter((id) => id !== socketId);
  const leave = (seat: SeatState): SeatState => {
    const sockets = drop(seat.sockets);
    const emptied = seat.sockets.length > 0 && sockets.length === 0 && seat.tokenHash !== null;
    return { ...seat, sockets, goneSince: emptied ? state.at : seat.goneSince };
  };
  return {
    ...state,
    seats: { tiger: leave(state.seats.tiger), goat: leave(state.seats.goat) },
    spectators: drop(state.spectators),
  };
}

/** Places a socket in a seat (side) or among the spectators (null), wherever it was before. */
export function withSocketAt(state: RoomState, socketId: string, side: Side | null): RoomState {
  const base = withoutSocket(state, socketId);
  if (side === null) return { ...base, spectators: [...base.spectators, socketId] };
  const seat = base.seats[side];
  return {
    ...base,
    seats: { ...base.seats, [side]: { ...seat, sockets: [...seat.sockets, socketId], goneSince: null } },
  };
}
