/**
 * Where rooms live between restarts: one narrow async interface, version-checked so that two
 * writers (two nodes, later) can never both apply a change at the same version.
 */
import type { Side } from '@bagh/rules';
import type { RoomRecord } from '../rooms/state.js';

export type { RoomRecord };

/** One event's durable part. Every event bumps the version; moves and seats also add data. */
export type StoredChange =
  | { readonly kind: 'move'; readonly version: number; readonly ply: number; readonly move: string }
  | { readonly kind: 'seat'; readonly version: number; readonly side: Side; readonly tokenHash: string }
  | { readonly kind: 'presence'; readonly version: number };

/** `conflict`: the stored version is no longer the expected one; reload and judge again. */
export type AppendResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly storedVersion: number | null };

export interface RoomStorage {
  /** Stores a new room. Resolves false when the id is already taken. */
  createRoom(record: RoomRecord): Promise<boolean>;
  /** The room with every seat hash and move, or null for an unknown id. */
  loadRoom(roomId: string): Promise<RoomRecord | null>;
  /**
   * Atomically applies `changes` (versions expectedVersion+1, +2, …) if the room is still at
   * `expectedVersion`. When it resolves ok, the changes are durable.
   */
  append(roomId: string, expectedVersion: number, changes: readonly StoredChange[]): Promise<AppendResult>;
  /** Throws when the store cannot serve (health check). */
  check(): Promise<void>;
  /** Flushes and releases the store; no call may follow. */
  close(): Promise<void>;
}

/** Programmer error: a change list whose versions do not follow expectedVersion. */
export function assertContiguous(expectedVersion: number, changes: readonly StoredChange[]): void {
  changes.forEach((change, index) => {
    if (change.version !== expectedVersion + index + 1) {
      throw new Error(
        `change ${index} has version ${change.version}, expected ${expectedVersion + index + 1}`,
      );
    }
  });
}
