/** A store in memory (tests, benchmarks): the same contract as SQLite, lost with the process. */
import { assertContiguous, type RoomRecord, type RoomStorage } from './types.js';

export function createMemoryStorage(): RoomStorage {
  const rooms = new Map<string, RoomRecord>();
  return {
    async createRoom(record) {
      if (rooms.has(record.roomId)) return false;
      rooms.set(record.roomId, structuredClone(record));
      return true;
    },
    async loadRoom(roomId) {
      const record = rooms.get(roomId);
      return record ? structuredClone(record) : null;
    },
    async append(roomId, expectedVersion, changes) {
      assertContiguous(expectedVersion, changes);
      const record = rooms.get(roomId);
      if (!record || record.version !== expectedVersion) {
        return { ok: false, storedVersion: record?.version ?? null };
      }
      const last = changes[changes.length - 1];
      if (!last) return { ok: true };
      const kept = changes.filter((change) => change.data !== null);
      rooms.set(roomId, { ...record, version: last.version, changes: [...record.changes, ...kept] });
      return { ok: true };
    },
    async changesSince(roomId, version) {
      const record = rooms.get(roomId);
      if (!record) return null;
      const changes = record.changes.filter((change) => change.version > version);
      return { version: record.version, changes: structuredClone(changes) };
    },
    async check() {},
    async close() {},
  };
}
