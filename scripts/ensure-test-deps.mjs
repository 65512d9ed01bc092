#!/usr/bin/env node
// Runs before `pnpm test`: the browser tests need Debian's Chromium, the multi-node tests a real
// redis-server, and the storage and multi-node tests a real PostgreSQL (they start their own on
// loopback), and the routing test the deployment's nginx. On a fresh machine (root, apt-get) they are
// installed; elsewhere we say what is missing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const redisServer = process.env.REDIS_SERVER ?? 'redis-server';
const nginx = process.env.NGINX ?? '/usr/sbin/nginx';
const runs = (command) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
// Debian puts PostgreSQL's server binaries in /usr/lib/postgresql/<version>/bin (or PG_BIN).
const postgresInstalled = () => {
  if (process.env.PG_BIN) return existsSync(`${process.env.PG_BIN}/initdb`);
  const root = '/usr/lib/postgresql';
  return existsSync(root) && readdirSync(root).some((version) => existsSync(`${root}/${version}/bin/initdb`));
};

const missing = [
  ...(existsSync(chromium) ? [] : ['chromium']),
  ...(runs(redisServer) ? [] : ['redis-server']),
  ...(postgresInstalled() ? [] : ['postgresql']),
  ...(existsSync(nginx) ? [] : ['nginx']),
];
if (missing.length === 0) process.exit(0);

const canInstall = process.getuid?.() === 0 && runs('apt-get');
if (!canInstall) {
  console.error(`The tests need Debian packages that are missing: ${missing.join(', ')}.`);
  console.error(
    `Install them (sudo apt-get install ${missing.join(' ')}) or set CHROMIUM_PATH / REDIS_SERVER / PG_BIN / NGINX.`,
  );
  process.exit(1);
}
console.log(`Installing ${missing.join(', ')} from Debian's packages for the tests…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
// The tests start their own servers: the packages' services (nginx on port 80, a system
// PostgreSQL, redis-server) must not start on install, nor fail it where port 80 is taken.
const policy = '/usr/sbin/policy-rc.d';
const ownPolicy = !existsSync(policy);
if (ownPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
try {
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    stdio: 'inherit',
    env,
  });
} finally {
  if (ownPolicy) rmSync(policy);
}
