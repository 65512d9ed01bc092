/**
 * A server on SQLite started while its database cannot be opened (a full disk: a small tmpfs,
 * mounted here as root): it waits, as on PostgreSQL, and comes up once the disk has room; a
 * data folder that can never be made fails at once.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.js';
import { sqliteMayHeal } from '../src/storage/sqlite.js';
import { fillDisk, mountTmpfs } from './full-disk.js';
import { createRoom, perTest, recordingLogger, sleep, startServer, type TestServer } from './helpers.js';

const fixture = perTest();

/** A data folder on a full disk, and the undo that frees it. */
function fullDataDir(): { dataDir: string; free: () => void } {
  const disk = mountTmpfs('1m', fixture.defer);
  const free = fillDisk(join(disk, 'filler'));
  let freed = false;
  fixture.defer(() => {
    if (!freed) free();
  });
  return {
    dataDir: join(disk, 'data'),
    free: () => {
      freed = true;
      free();
    },
  };
}

/** The server `startServer` gives, closed after the test; or what it threw. */
async function started(opts: Parameters<typeof startServer>[0]): Promise<TestServer | unknown> {
  return startServer(opts).then(
    (server) => {
      fixture.defer(() => server.close());
      return server;
    },
    (error: unknown) => error,
  );
}

const WAITING = 'sqlite: cannot open at start; waiting';

describe('a server started while its SQLite file cannot be opened', () => {
  it('waits, says so once, and comes up once the disk has room again', async () => {
    const fault = fullDataDir();
    const { logger, lines } = recordingLogger('debug');
    let up = false;
    const starting = started({ dataDir: fault.dataDir, options: { logger } }).then((result) => {
      up = true;
      return result;
    });
    await sleep(1500);
    expect(up).toBe(false);
    fault.free();
    const server = (await starting) as TestServer;
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await createRoom(server.url, { variant: 'bagh-chal', side: 'goat' })).roomId).toBeTruthy();
    const warnings = lines.filter((line) => line.msg === WAITING && line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.err?.code).toMatch(/^(ENOSPC|SQLITE_FULL|SQLITE_IOERR)/);
    expect(lines.some((line) => line.msg === 'sqlite: opened after waiting')).toBe(true);
  });

  it('gives up when the wait is over, with the reason', async () => {
    const fault = fullDataDir();
    const { logger, lines } = recordingLogger('debug');
    const began = Date.now();
    const failed = await started({ dataDir: fault.dataDir, options: { logger, storeStartWaitMs: 1000 } });
    expect(failed).toBeInstanceOf(Error);
    expect(String(failed)).toMatch(/ENOSPC|disk is full|disk I\/O/);
    expect(Date.now() - began).toBeGreaterThanOrEqual(1000);
    expect(lines.some((line) => line.msg === 'sqlite: still failing at start; giving up')).toBe(true);
  });

  it('fails at once when the data folder can never be made (a file is in the way)', async () => {
    const dir = fixture.dataDir();
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    for (const dataDir of [file, join(file, 'data')]) {
      const { logger, lines } = recordingLogger('debug');
      const failed = await started({ dataDir, options: { logger } });
      expect(failed, dataDir).toBeInstanceOf(ConfigError);
      expect(String(failed), dataDir).toMatch(/a folder above it, is a file/);
      // At once: not a single wait (a wait would log that it waits, and take its 60 s).
      expect(
        lines.map((line) => line.msg),
        dataDir,
      ).not.toContain(WAITING);
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
