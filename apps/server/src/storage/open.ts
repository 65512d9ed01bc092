/** Opening the rooms' store at start, waiting a while for one that cannot be opened yet. */
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { redactedUrl } from '../cluster/redis.js';
import type { Config } from '../config.js';
import { databaseUnreachable, openPostgresStorage } from './postgres.js';
import { openSqliteStorage, sqliteMayHeal } from './sqlite.js';
import type { RoomStorage } from './types.js';

/** The rooms' store: PostgreSQL at DATABASE_URL, else SQLite at DATA_DIR/bagh.sqlite. */
export async function openStore(
  config: Config,
  log: Logger,
  startWaitMs = STORE_START_WAIT_MS,
): Promise<RoomStorage> {
  if (!config.DATABASE_URL) {
    const file = join(resolve(config.DATA_DIR), 'bagh.sqlite');
    return openWhenReady(() => openSqliteStorage(file), {
      store: 'sqlite',
      where: { file },
      mayHeal: sqliteMayHeal,
      waitMs: startWaitMs,
      log,
    });
  }
  const url = config.DATABASE_URL;
  const database = redactedUrl(url);
  const storage = await openWhenReady(
    () =>
      openPostgresStorage(url, {
        onError: (error) => log.warn({ err: error }, 'postgres: an idle connection failed'),
      }),
    { store: 'postgres', where: { database }, mayHeal: databaseUnreachable, waitMs: startWaitMs, log },
  );
  log.info({ database }, 'rooms in PostgreSQL');
  return storage;
}

/**
 * Opens the store, trying again for up to `waitMs` while it fails in a way that may pass (a
 * database away, a disk full): a node started during a short outage, or together with its
 * database, comes up when it ends rather than exiting at once. Any other failure is thrown at once.
 */
async function openWhenReady<T>(
  open: () => T | Promise<T>,
  how: {
    store: string;
    where: Record<string, string>;
    mayHeal: (error: unknown) => boolean;
    waitMs: number;
    log: Logger;
  },
): Promise<T> {
  const { store, where, log } = how;
  const giveUpAt = Date.now() + how.waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const opened = await open();
      if (attempt > 1) log.info({ ...where, attempt }, `${store}: opened after waiting`);
      return opened;
    } catch (error) {
      if (!how.mayHeal(error)) throw error;
      const left = giveUpAt - Date.now();
      if (left <= 0) {
        log.error(
          { err: error, ...where, waitedMs: how.waitMs },
          `${store}: still failing at start; giving up`,
        );
        throw error;
      }
      // Said once (the error may be the same for a minute); each attempt after at debug.
      const level = attempt === 1 ? 'warn' : 'debug';
      log[level](
        { err: error, ...where, attempt, giveUpInMs: left },
        `${store}: cannot open at start; waiting`,
      );
      const pauseMs = Math.min(5000, 250 * 2 ** attempt, left);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/** How long a starting node waits for a store that cannot be opened yet before it gives up (exit 1). */
const STORE_START_WAIT_MS = 60_000;
