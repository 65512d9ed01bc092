/** Test fixtures shared by the component and model tests (never imported by the app itself). */
import type { Snapshot } from '@bagh/protocol';

/**
 * A room snapshot: a Bagh Chal game at its start, both seats taken and connected, no clock;
 * `overrides` replaces whole fields (a snapshot is never merged deeper).
 */
export function snapshotFixture(overrides: Partial<Snapshot> = {}): Snapshot {
  return {
    roomId: 'room-abc',
    version: 1,
    variant: 'bagh-chal',
    options: { goatsFirst: true, multiJump: false, noRepeat: true },
    position: 'T3T/5/5/5/T3T g 20 0',
    moves: [],
    toMove: 'goat',
    goatsInHand: 20,
    captured: 0,
    result: null,
    seats: { tiger: { taken: true, connected: true }, goat: { taken: true, connected: true } },
    spectators: 0,
    at: 0,
    timeControl: null,
    clock: null,
    drawOffer: null,
    rematch: null,
    abandon: null,
    public: false,
    imported: false,
    ...overrides,
  };
}
