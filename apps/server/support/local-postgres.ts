/**
 * A throw-away PostgreSQL on a free loopback port, in a temp folder: for the storage and
 * multi-node tests and `pnpm bench:load`, which start their own (Debian's postgresql package,
 * binaries in /usr/lib/postgresql/<version>/bin, or PG_BIN). initdb and postgres refuse to run as
 * root, so as root both run as the `postgres` user (the folder is handed to it).
 *
 * It is a test instance, tuned to start fast and write little: fsync off, full_page_writes off,
 * small shared_buffers. A commit still waits for its WAL write (synchronous_commit stays on), so
 * a killed postgres process loses nothing acknowledged; only an OS crash could.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { answersWithin, freePort, stopProcess } from './local-redis.js';

export interface LocalPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication on loopback). */
  readonly url: string;
  readonly port: number;
  /** The postmaster's pid. */
  readonly pid: number;
  /** A fast shutdown (SIGINT: connections are cut, the data is kept); resolves once it exited. */
  stop(): Promise<void>;
  /** SIGSTOP (true) or SIGCONT (false) to the postmaster and every backend: a database that hangs. */
  freeze(frozen: boolean): void;
}

export interface LocalPostgresOptions {
  /** The port (default: a free one). */
  readonly port?: number;
  /**
   * The cluster's folder, kept after stop (to start it again on the same data; initialized when
   * empty); by default a temp folder removed on stop.
   */
  readonly dataDir?: string;
}

/** The bin folder of Debian's newest postgresql (or PG_BIN), or null when none is installed. */
export function postgresBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** Fails with a clear message (never skips) when PostgreSQL is not installed. */
export function assertPostgresInstalled(): string {
  const bin = postgresBin();
  if (bin === null || !existsSync(join(bin, 'postgres'))) {
    throw new Error(
      'a real PostgreSQL is needed, and none was found in /usr/lib/postgresql/*/bin. Install it: ' +
        "apt-get install postgresql (pnpm test's scripts/ensure-test-deps.mjs does), or set PG_BIN.",
    );
  }
  return bin;
}

/** As root: the postgres user's uid and gid (initdb and postgres refuse root); else nothing. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error('running as root, and there is no postgres user to run PostgreSQL as');
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Starts PostgreSQL on a loopback port; resolves once it accepts connections. */
export async function startLocalPostgres(options: LocalPostgresOptions = {}): Promise<LocalPostgres> {
  const bin = assertPostgresInstalled();
  const user = runAs();
  const home = options.dataDir ?? mkdtempSync(join(tmpdir(), 'bagh-pg-'));
  const data = join(home, 'data');
  if (user) chownSync(home, user.uid, user.gid);
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  if (!existsSync(join(data, 'PG_VERSION'))) {
    const copy = spawnSync('cp', ['-a', template(bin, asUser), data], { encoding: 'utf8', ...asUser });
    if (copy.status !== 0) throw new Error(`copying the initialized cluster failed: ${copy.stderr}`);
  }
  const removeHome = () => {
    if (!options.dataDir) rmSync(home, { recursive: true, force: true });
  };
  for (let attempt = 0; ; attempt++) {
    const port = options.port ?? (await freePort());
    const settings = {
      listen_addresses: '127.0.0.1',
      port: String(port),
      unix_socket_directories: '', // TCP only: no socket file in a system folder
      fsync: 'off',
      full_page_writes: 'off',
      shared_buffers: '16MB',
      max_connections: '100',
      logging_collector: 'off',
    };
    const args = ['-D', data, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    const child = spawn(join(bin, 'postgres'), args, {
      cwd: home,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...asUser,
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    if (await answersWithin(child, 15_000, () => accepts(url))) {
      const pid = child.pid!;
      return {
        url,
        port,
        pid,
        stop: async () => {
          await stopProcess(child, 'SIGINT');
          removeHome();
        },
        freeze: (frozen) => {
          for (const each of [pid, ...childrenOf(pid)]) process.kill(each, frozen ? 'SIGSTOP' : 'SIGCONT');
        },
      };
    }
    await stopProcess(child, 'SIGINT');
    if (attempt >= 2 || options.port !== undefined) {
      removeHome();
      throw new Error(`postgres did not start on port ${port}:\n${output}`);
    }
  }
}

/**
 * A freshly initialized cluster to copy (initdb takes seconds, a copy a fraction): made once per
 * machine, PostgreSQL version and user, in the temp folder, and renamed into place whole, so
 * test files starting at once never see half of one.
 */
function template(bin: string, asUser: { uid?: number; gid?: number }): string {
  const version = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  const tag = createHash('sha256').update(`${bin} ${version}`).digest('hex').slice(0, 12);
  const ready = join(tmpdir(), `bagh-pg-template-${tag}-${asUser.uid ?? process.getuid?.() ?? 0}`);
  if (existsSync(join(ready, 'PG_VERSION'))) return ready;
  const work = mkdtempSync(join(tmpdir(), 'bagh-pg-init-'));
  try {
    if (asUser.uid !== undefined) chownSync(work, asUser.uid, asUser.gid ?? 0);
    const made = join(work, 'data');
    const init = spawnSync(
      join(bin, 'initdb'),
      ['-D', made, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
      { encoding: 'utf8', cwd: work, ...asUser },
    );
    if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`);
    try {
      renameSync(made, ready);
    } catch (error) {
      // Another test file made it meanwhile: theirs is as good.
      if (!existsSync(join(ready, 'PG_VERSION'))) throw error;
    }
    return ready;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Whether PostgreSQL at `url` answers a query. */
async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 500 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The pids whose parent is `pid` (Linux /proc): the postmaster's backends and workers. */
export function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
