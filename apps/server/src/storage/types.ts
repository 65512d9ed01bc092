/**
 * Where rooms live between restarts: one narrow async interface, version-checked so that two
 * writers (two nodes, later) can never both apply a change at the same version.
 */
/** JSON data, as the store keeps it. */
export type StoredData = Readonly<Record<string, unknown>>;

/**
 * One event's durable part. Every event bumps the room's version; a change with data is also
 * kept, to be replayed in order when the room is loaded. The store never looks inside the data.
 */
export interface StoredChange {
  readonly version: number;
  readonly kind: string;
  readonly data: StoredData | null;
}

/** A room as stored: how it was set up, its version, and every change with data, in order. */
export interface RoomRecord {
  readonly roomId: string;
  readonly createdAt: number;
  readonly init: StoredData;
  readonly version: number;
  readonly changes: readonly StoredChange[];
}

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
  /**
   * Shared stores only (several nodes on one Redis): the version stored for the room, or null
   * when unknown. A room that is live on several nodes compares it with its cached version
   * before judging a command, and reloads when another node moved the room on.
   */
  currentVersion?(roomId: string): Promise<number | null>;
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
