#!/usr/bin/env node
// `pnpm start`'s build: only what is missing or older than its sources, so a restart on a built
// tree serves at once while a fresh clone still builds everything.
//  - the server and the packages it runs: `tsc -b` (project references, incremental; an
//    up-to-date tree costs a check of timestamps);
//  - the web client: `vite build` only when apps/web/dist is missing or older than any input.
// The benches and tools (dist-tools, dist-bench) are left to `pnpm build`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => join(root, ...parts);

function run(command, args, cwd = root) {
  const { status, error } = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (error) throw error;
  if (status !== 0) process.exit(status ?? 1);
}

/** The newest modification time under `path` (a file or a folder, recursively), 0 when absent. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted file shows as its folder's change
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** When the web build was made: its oldest output (vite rewrites them all), 0 when incomplete. */
function webBuiltAt() {
  const dist = at('apps/web/dist');
  if (!existsSync(join(dist, 'index.html')) || !existsSync(join(dist, 'assets'))) return 0;
  const outputs = [
    join(dist, 'index.html'),
    ...readdirSync(join(dist, 'assets')).map((f) => join(dist, 'assets', f)),
  ];
  return Math.min(...outputs.map((file) => statSync(file).mtimeMs));
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
run(process.execPath, [tsc, '-b', 'apps/server/tsconfig.build.json']);

const webInputs = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/package.json',
  'apps/web/vite.config.ts',
  'apps/web/svelte.config.js',
  'apps/web/tsconfig.json',
  'tsconfig.base.json',
  'pnpm-lock.yaml',
  ...['rules', 'protocol', 'engine'].flatMap((name) => [
    `packages/${name}/src`,
    `packages/${name}/package.json`,
  ]),
];
const builtAt = webBuiltAt();
const changedAt = Math.max(...webInputs.map((input) => newest(at(input))));
if (builtAt === 0 || changedAt > builtAt) {
  // The packages' dist are current (tsc above): vite bundles them.
  run('pnpm', ['--filter', '@bagh/web', 'run', 'build']);
}
