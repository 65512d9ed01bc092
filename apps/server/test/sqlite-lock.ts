/** Another connection holding SQLite's write lock on a server's file (a backup, a second process). */
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Takes the write lock of `dataDir`'s database (WAL: readers go on) until `unlock`; `defer` gets
 * the connection's close, so a test that fails while locked leaves nothing locked.
 */
export function lockSqlite(dataDir: string, defer: (step: () => void) => void): { unlock(): void } {
  const locker = new Database(join(dataDir, 'bagh.sqlite'));
  defer(() => {
    locker.close();
  });
  locker.exec('BEGIN EXCLUSIVE');
  return { unlock: () => locker.exec('COMMIT') };
}
