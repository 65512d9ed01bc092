/** A store in memory (tests, benchmarks): the same contract as SQLite, lost with the process. */
import {
  type ArchivedGame,
  assertContiguous,
  type GameSummary,
  type RoomRecord,
  type RoomStorage,
  UNLISTED_REASON,
} from './types.js';

export function createMemoryStorage(): RoomStorage {
  const rooms = new Map<string, RoomRecord>();
  const games = new Map<string, ArchivedGame>();
  const archive = (game: ArchivedGame) => {
    if (!games.has(game.roomId)) games.set(game.roomId, structuredClone(game));
  };
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
    async append(roomId, expectedVersion, changes, finished) {
      assertContiguous(expectedVersion, changes);
      const record = rooms.get(roomId);
      if (!record || record.version !== expectedVersion) {
        return { ok: false, storedVersion: record?.version ?? null };
      }
      const last = changes[changes.length - 1];
      if (!last) return { ok: true };
      const kept = changes.filter((change) => change.data !== null);
      rooms.set(roomId, { ...record, version: last.version, changes: [...record.changes, ...kept] });
      if (finished) archive(finished);
      return { ok: true };
    },
    async changesSince(roomId, version) {
      const record = rooms.get(roomId);
      if (!record) return null;
      const changes = record.changes.filter((change) => change.version > version);
      return { version: record.version, changes: structuredClone(changes) };
    },
    async archiveGame(game) {
      archive(game);
    },
    async loadGame(roomId) {
      const game = games.get(roomId);
      return game ? structuredClone(game) : null;
    },
    async timedRoomsInPlay(createdSince, limit) {
      const timed = [...rooms.values()].filter(
        (record) =>
          record.createdAt >= createdSince &&
          typeof record.init.clock === 'object' &&
          record.init.clock !== null &&
          record.changes.some((change) => change.kind === 'move') &&
          !games.has(record.roomId),
      );
      return timed
        .sort((a, b) => a.createdAt - b.createdAt)
        .slice(0, limit)
        .map((record) => record.roomId);
    },
    async listGames({ variant, result, before, limit }) {
      const listed: GameSummary[] = [];
      for (const { moves: _moves, start: _start, ...game } of games.values()) {
        if (game.reason === UNLISTED_REASON) continue;
        if (variant !== undefined && game.variant !== variant) continue;
        if (result !== undefined && game.winner !== (result === 'draw' ? null : result)) continue;
        if (before && !newer(before, game)) continue;
        listed.push(structuredClone(game));
      }
      return listed.sort((a, b) => (newer(a, b) ? -1 : 1)).slice(0, limit);
    },
    async check() {},
    async close() {},
  };
}

/** Whether `a` comes before `b`, newest first (room ids compared as SQL's binary collation does). */
function newer(
  a: { finishedAt: number; roomId: string },
  b: { finishedAt: number; roomId: string },
): boolean {
  return a.finishedAt !== b.finishedAt ? a.finishedAt > b.finishedAt : a.roomId > b.roomId;
}
