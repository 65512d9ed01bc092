/**
 * The deployment's load balancer for the tests: Debian's nginx run with `deploy/nginx.conf` itself,
 * its upstream servers replaced by the test's nodes and its port by a free loopback one, so a test
 * checks the routing the deployment ships (not a copy of it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answersWithin, freePort, stopProcess } from './local-redis.js';

const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

export interface LocalNginx {
  readonly url: string;
  stop(): Promise<void>;
}

/** Fails with a clear message (never skips) when nginx is not installed. */
export function assertNginxInstalled(): void {
  const probe = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `a real nginx is needed, and '${NGINX}' cannot be run (${probe.error?.message ?? `exit ${probe.status}`}). ` +
        'Install it: apt-get install nginx (`pnpm test` does), or point NGINX at the binary.',
    );
  }
}

/** The repository's deploy/nginx.conf (this file runs from support/ and dist-bench/support/). */
function deployedConfig(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'deploy', 'nginx.conf'))) {
    if (dirname(dir) === dir) throw new Error(`no deploy/nginx.conf above ${import.meta.url}`);
    dir = dirname(dir);
  }
  return readFileSync(join(dir, 'deploy', 'nginx.conf'), 'utf8');
}

/**
 * The deployed config with every upstream's `server appN:3000 …;` lines replaced by one line per
 * node (same parameters), `listen 3000` by `port` on loopback, and the files nginx writes kept in
 * `dir`. Throws when the config no longer has what is replaced, so a change to it is noticed.
 */
export function configFor(config: string, nodes: readonly string[], port: number, dir: string): string {
  const appServers = /^(\s*)server app\d+:3000( [^;\n]*)?;\n/gm;
  const upstreams = config.match(/upstream \w+ \{[^}]*\}/g) ?? [];
  if (upstreams.length === 0 || !upstreams.every((block) => /server app\d+:3000/.test(block))) {
    throw new Error('deploy/nginx.conf: every upstream should list the app nodes as `server appN:3000`');
  }
  if (!/^\s*listen 3000;$/m.test(config)) throw new Error('deploy/nginx.conf: expected `listen 3000;`');
  const withNodes = config.replace(/upstream \w+ \{[^}]*\}/g, (block) => {
    let first = true;
    return block.replace(appServers, (_line, indent: string, params = '') => {
      if (!first) return '';
      first = false;
      return nodes.map((node) => `${indent}server ${new URL(node).host}${params};\n`).join('');
    });
  });
  const files = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`)
    .join('\n');
  return withNodes
    .replace(/^(\s*)listen 3000;$/m, `$1listen 127.0.0.1:${port};`)
    .replace(/^http \{$/m, `http {\n  access_log off;\n${files}`);
}

/** Starts nginx in front of `nodes` (their base URLs); resolves once it answers /nginx-health. */
export async function startLocalNginx(nodes: readonly string[]): Promise<LocalNginx> {
  assertNginxInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'bagh-nginx-'));
  mkdirSync(join(dir, 'logs'));
  const port = await freePort();
  const configPath = join(dir, 'nginx.conf');
  writeFileSync(configPath, configFor(deployedConfig(), nodes, port, dir));
  const child = spawn(
    NGINX,
    [
      '-p',
      dir,
      '-c',
      configPath,
      '-e',
      join(dir, 'error.log'),
      '-g',
      `daemon off; pid ${join(dir, 'nginx.pid')};`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopProcess(child, 'SIGQUIT');
    rmSync(dir, { recursive: true, force: true });
  };
  if (!(await answersWithin(child, 10_000, async () => (await fetch(`${url}/nginx-health`)).ok))) {
    const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
    await stop();
    throw new Error(`nginx did not start on port ${port}:\n${output}${log}`);
  }
  return { url, stop };
}
