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

export interface ChangesSince {
  /** The stored version now. */
  readonly version: number;
  /** The changes with data whose version is above the one asked for, in order. */
  readonly changes: readonly StoredChange[];
}

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
   * Shared stores only (several nodes on one PostgreSQL): the version stored for the room, or null
   * when unknown. A room that is live on several nodes compares it with its cached version
   * before judging a command, and reloads when another node moved the room on.
   */
  currentVersion?(roomId: string): Promise<number | null>;
  /**
   * The room's version and its changes with data after `version`, in order, read at one instant
   * (null for an unknown room): what a node whose cached room is at `version` has missed. A node
   * applies them instead of reloading the whole room.
   */
  changesSince?(roomId: string, version: number): Promise<ChangesSince | null>;
  /**
   * Shared stores only: the index of public rooms in play across nodes. `entry` null removes the
   * room (it has a result). An update older (by version) than the one indexed is ignored.
   */
  indexLive?(roomId: string, version: number, entry: StoredData | null, at: number): Promise<void>;
  /** The indexed public rooms in play, most recently active first. */
  listLive?(limit: number): Promise<StoredData[]>;
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

/** A new room's columns as the SQL stores insert them: id, created at, init (JSON), version. */
export const roomColumns = (record: RoomRecord): [string, number, string, number] => [
  record.roomId,
  record.createdAt,
  JSON.stringify(record.init),
  record.version,
];
