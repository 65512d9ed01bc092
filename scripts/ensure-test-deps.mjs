#!/usr/bin/env node
// Runs before `pnpm test`: the browser tests need Debian's Chromium and the multi-node tests a real
// redis-server. On a fresh machine (root, apt-get) they are installed; elsewhere we say what is missing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const redisServer = process.env.REDIS_SERVER ?? 'redis-server';
const runs = (command) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;

const missing = [
  ...(existsSync(chromium) ? [] : ['chromium']),
  ...(runs(redisServer) ? [] : ['redis-server']),
];
if (missing.length === 0) process.exit(0);

const canInstall = process.getuid?.() === 0 && runs('apt-get');
if (!canInstall) {
  console.error(`The tests need Debian packages that are missing: ${missing.join(', ')}.`);
  console.error(
    `Install them (sudo apt-get install ${missing.join(' ')}) or set CHROMIUM_PATH / REDIS_SERVER.`,
  );
  process.exit(1);
}
console.log(`Installing ${missing.join(', ')} from Debian's packages for the tests…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
  stdio: 'inherit',
  env,
});
