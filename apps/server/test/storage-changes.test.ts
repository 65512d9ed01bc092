/** changesSince on the single-node stores (SQLite, memory): the changes a cached room missed. */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../src/storage/memory.js';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import type { RoomStorage } from '../src/storage/types.js';
import { removeDir, tempDir } from './helpers.js';

const dir = tempDir('bagh-changes-');
afterAll(() => removeDir(dir));

const stores: [string, () => RoomStorage][] = [
  ['sqlite', () => openSqliteStorage(join(dir, 'bagh.sqlite'))],
  ['memory', () => createMemoryStorage()],
];

describe.each(stores)('%s changesSince', (_name, open) => {
  it('returns the version and the changes with data after the one asked for, null for an unknown room', async () => {
    const storage = open();
    const roomId = `room-${_name}`;
    await storage.createRoom({ roomId, createdAt: 1, init: {}, version: 0, changes: [] });
    const move = (version: number) => ({ version, kind: 'move', data: { move: `m${version}` } });
    expect(
      await storage.append(roomId, 0, [move(1), { version: 2, kind: 'presence', data: null }, move(3)]),
    ).toEqual({ ok: true });
    expect(await storage.changesSince?.(roomId, 0)).toEqual({ version: 3, changes: [move(1), move(3)] });
    expect(await storage.changesSince?.(roomId, 1)).toEqual({ version: 3, changes: [move(3)] });
    expect(await storage.changesSince?.(roomId, 3)).toEqual({ version: 3, changes: [] });
    expect(await storage.changesSince?.('unknown', 0)).toBeNull();
    await storage.close();
  });
});
