/**
 * A server on SQLite started while its database cannot be opened: it waits (as on PostgreSQL)
 * and comes up once the fault is gone; a data folder that can never be made fails at once.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.js';
import { sqliteMayHeal } from '../src/storage/sqlite.js';
import { createRoom, removeDir, startServer, type TestServer, tempDir } from './helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dirs: string[] = [];
const undos: (() => void)[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const undo of undos.splice(0)) undo();
  for (const dir of dirs) removeDir(dir);
});

/**
 * Makes `dir` a folder nothing can be created in, and returns the undo: chmod, or for root (whom
 * modes do not stop) the immutable attribute. Null where neither is possible.
 */
function makeUnwritable(dir: string): (() => void) | null {
  try {
    if (process.getuid?.() !== 0) {
      chmodSync(dir, 0o500);
      return () => chmodSync(dir, 0o700);
    }
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
    return () => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
}

/** A data folder nothing can be written to yet (its undo is run after the tests in any case). */
function unwritableDataDir(): { dataDir: string; undo: () => void } | null {
  const dataDir = join(tempDir('bagh-sqlite-start-'), 'data');
  dirs.push(join(dataDir, '..'));
  mkdirSync(dataDir);
  const undo = makeUnwritable(dataDir);
  if (undo === null) return null;
  let undone = false;
  const once = () => {
    if (!undone) undo();
    undone = true;
  };
  undos.push(once);
  return { dataDir, undo: once };
}

const canFault = (() => {
  const probe = unwritableDataDir();
  probe?.undo();
  return probe !== null;
})();

/** A pino logger whose lines the test reads. */
function recordingLogger() {
  const lines: { level: number; msg: string; err?: { code?: string } }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

const WAITING = 'sqlite: cannot open at start; waiting';

describe('a server started while its SQLite file cannot be opened', () => {
  it.skipIf(!canFault)('waits, says so once, and comes up once the data folder is writable', async () => {
    const fault = unwritableDataDir()!;
    const { logger, lines } = recordingLogger();
    let started = false;
    const starting = startServer({ dataDir: fault.dataDir, options: { logger } }).then((server) => {
      started = true;
      servers.push(server);
      return server;
    });
    await sleep(1500);
    expect(started).toBe(false);
    fault.undo();
    const server = await starting;
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await createRoom(server.url, { variant: 'bagh-chal', side: 'goat' })).roomId).toBeTruthy();
    const warnings = lines.filter((line) => line.msg === WAITING && line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.err?.code).toBe('SQLITE_CANTOPEN');
    expect(lines.some((line) => line.msg === 'sqlite: opened after waiting')).toBe(true);
  });

  it.skipIf(!canFault)('gives up when the wait is over, with the reason', async () => {
    const fault = unwritableDataDir()!;
    const { logger, lines } = recordingLogger();
    const began = Date.now();
    const failed = await startServer({
      dataDir: fault.dataDir,
      options: { logger, storeStartWaitMs: 1000 },
    }).then(
      (server) => {
        servers.push(server);
        return null;
      },
      (error: unknown) => error,
    );
    expect(String(failed)).toContain('unable to open database file');
    expect(Date.now() - began).toBeGreaterThanOrEqual(1000);
    expect(lines.some((line) => line.msg === 'sqlite: still failing at start; giving up')).toBe(true);
  });

  it('fails at once when the data folder can never be made (a file is in the way)', async () => {
    const dir = tempDir('bagh-sqlite-start-');
    dirs.push(dir);
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    for (const dataDir of [file, join(file, 'data')]) {
      const began = Date.now();
      const failed = await startServer({ dataDir }).then(
        (server) => {
          servers.push(server);
          return null;
        },
        (error: unknown) => error,
      );
      expect(failed, dataDir).toBeInstanceOf(ConfigError);
      expect(String(failed), dataDir).toMatch(/a folder above it, is a file/);
      expect(Date.now() - began, dataDir).toBeLessThan(1000);
    }
  });

  it('waits for a disk full or a locked file, not for a file that is no database', () => {
    for (const code of [
      'SQLITE_FULL',
      'SQLITE_IOERR_WRITE',
      'SQLITE_BUSY',
      'SQLITE_CANTOPEN',
      'ENOSPC',
      'EACCES',
    ]) {
      expect(sqliteMayHeal(Object.assign(new Error(code), { code })), code).toBe(true);
    }
    for (const code of ['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'ENOTDIR', undefined]) {
      expect(sqliteMayHeal(Object.assign(new Error('no'), { code })), String(code)).toBe(false);
    }
  });
});
