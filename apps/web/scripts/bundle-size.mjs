#!/usr/bin/env node
// The gzipped size of the client's JavaScript against two budgets, exiting 1 when over either:
//  - a room's first load: what a /r/<id> page runs before anything else (the entry chunk of
//    index.html and every chunk it imports statically, transitively);
//  - the whole app: every JS file in apps/web/dist/assets (lazy chunks and the engine's worker too).
// The service worker (dist/sw.js and the workbox-*.js it imports, written by vite-plugin-pwa) is
// not counted: no page loads it as a script; the browser fetches it once per update check and runs
// it in its own thread. Its size is printed for information. The registration that pages do run
// (src/lib/offline/network.svelte.ts) is part of the entry chunk, so it is counted.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOM_BUDGET_KB = 60;
const TOTAL_BUDGET_KB = 80;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const assets = join(dist, 'assets');

let files;
let html;
try {
  files = readdirSync(assets).filter((f) => f.endsWith('.js'));
  html = readFileSync(join(dist, 'index.html'), 'utf8');
} catch {
  console.error(`no build found at ${dist}; run \`pnpm --filter @bagh/web build\` first`);
  process.exit(2);
}
if (files.length === 0) {
  console.error(`no JS files in ${assets}`);
  process.exit(2);
}

/** The chunks `file` imports statically (`import … from "./x.js"`, `import "./x.js"`; not `import()`). */
const staticImports = (file) =>
  [
    ...readFileSync(join(assets, file), 'utf8').matchAll(
      /\bimport\s*(?:[^"'();]*?\bfrom\s*)?["']\.\/([^"']+\.js)["']/g,
    ),
  ].map((match) => match[1]);

// The entry script (and any chunk the page preloads), then what they import, transitively.
const firstLoad = new Set();
const pending = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/assets\/([^"]+\.js)"/g)].map(
  (m) => m[1],
);
if (pending.length === 0) {
  console.error('index.html loads no script from /assets');
  process.exit(2);
}
while (pending.length > 0) {
  const file = pending.pop();
  if (firstLoad.has(file)) continue;
  firstLoad.add(file);
  pending.push(...staticImports(file));
}

const kb = (n) => (n / 1024).toFixed(2);
let raw = 0;
let gz = 0;
let roomGz = 0;
console.log('file'.padEnd(40), 'raw KB'.padStart(9), 'gzip KB'.padStart(9), ' first load of a room');
for (const file of files.sort()) {
  const bytes = readFileSync(join(assets, file));
  const zipped = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += zipped;
  if (firstLoad.has(file)) roomGz += zipped;
  console.log(
    file.padEnd(40),
    kb(bytes.length).padStart(9),
    kb(zipped).padStart(9),
    firstLoad.has(file) ? ' yes' : '',
  );
}
console.log('total'.padEnd(40), kb(raw).padStart(9), kb(gz).padStart(9));

const verdicts = [
  ['first load of a room', roomGz, ROOM_BUDGET_KB],
  ['whole app', gz, TOTAL_BUDGET_KB],
].map(([what, bytes, budget]) => {
  const ok = bytes <= budget * 1024;
  console.log(`${what}: ${kb(bytes)} KB of ${budget} KB gzipped — ${ok ? 'within budget' : 'OVER BUDGET'}`);
  return ok;
});
const serviceWorker = readdirSync(dist).filter((f) => f === 'sw.js' || /^workbox-.*\.js$/.test(f));
if (serviceWorker.length > 0) {
  const swGz = serviceWorker.reduce(
    (sum, f) => sum + gzipSync(readFileSync(join(dist, f)), { level: 9 }).length,
    0,
  );
  console.log(
    `service worker (${serviceWorker.join(', ')}; not page JS, not budgeted): ${kb(swGz)} KB gzipped`,
  );
}
process.exit(verdicts.every(Boolean) ? 0 : 1);
