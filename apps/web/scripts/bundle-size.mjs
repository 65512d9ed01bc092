#!/usr/bin/env node
// The gzipped size of the client's JavaScript against two budgets, per visitor, exiting 1 when any
// language is over either. A visitor sees one language (project.inlang/settings.json): each
// language's messages, English's too, are a chunk of their own (`<locale>-<hash>.js`; vite.config.ts,
// splitLocales), loaded by src/lib/i18n before the app mounts and never alongside another
// language's (a base language kept in the entry would simply have no chunk). So, for each language L:
//  - a room's first load: what a /r/<id> page runs before anything is drawn: the entry chunk of
//    index.html and every chunk it imports statically, transitively, plus L's message chunk (and
//    what that imports);
//  - the whole app: every JS file in apps/web/dist/assets (lazy chunks and the engine's worker
//    too) except the other languages' message chunks, which an L visitor never loads.
// Every language's two numbers are printed; the exit code is 1 if any of them is over budget.
// (The service worker's precache, below, fetches every file, all languages included, in the
// background after a first visit; that download is not a page's load and is not budgeted.)
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

/** `roots` and every chunk they import statically, transitively. */
function closure(roots) {
  const found = new Set();
  const pending = [...roots];
  while (pending.length > 0) {
    const file = pending.pop();
    if (found.has(file)) continue;
    found.add(file);
    pending.push(...staticImports(file));
  }
  return found;
}

// The entry script (and any chunk the page preloads), then what they import, transitively.
const entries = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/assets\/([^"]+\.js)"/g)].map(
  (m) => m[1],
);
if (entries.length === 0) {
  console.error('index.html loads no script from /assets');
  process.exit(2);
}
const firstLoad = closure(entries);

const { locales, baseLocale } = JSON.parse(
  readFileSync(new URL('../project.inlang/settings.json', import.meta.url), 'utf8'),
);
/** Each language's message chunk (none for one whose messages are in the entry). */
const localeChunk = Object.fromEntries(
  locales.map((locale) => [locale, files.find((f) => new RegExp(`^${locale}-[\\w-]{8}\\.js$`).test(f))]),
);
for (const locale of locales) {
  if (locale !== baseLocale && !localeChunk[locale]) {
    console.error(`no message chunk for ${locale} (${locale}-<hash>.js) in ${assets}`);
    process.exit(2);
  }
}
const localeOf = new Map(Object.entries(localeChunk).map(([locale, file]) => [file, locale]));

const kb = (n) => (n / 1024).toFixed(2);
const size = new Map();
let raw = 0;
console.log('file'.padEnd(40), 'raw KB'.padStart(9), 'gzip KB'.padStart(9), ' first load of a room');
for (const file of files.sort()) {
  const bytes = readFileSync(join(assets, file));
  const zipped = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  size.set(file, zipped);
  const note = firstLoad.has(file) ? ' yes' : localeOf.has(file) ? ` with ${localeOf.get(file)}` : '';
  console.log(file.padEnd(40), kb(bytes.length).padStart(9), kb(zipped).padStart(9), note);
}
const sum = (set) => [...set].reduce((total, file) => total + size.get(file), 0);
console.log('all files'.padEnd(40), kb(raw).padStart(9), kb(sum(files)).padStart(9));
console.log();

let ok = true;
console.log(
  'language',
  'first load of a room'.padStart(22),
  'whole app'.padStart(12),
  `  (budgets ${ROOM_BUDGET_KB} and ${TOTAL_BUDGET_KB} KB gzipped)`,
);
for (const locale of locales) {
  const own = localeChunk[locale];
  const room = sum(new Set([...firstLoad, ...(own ? closure([own]) : [])]));
  const others = new Set(
    locales
      .filter((l) => l !== locale)
      .map((l) => localeChunk[l])
      .filter(Boolean),
  );
  const whole = sum(files.filter((f) => !others.has(f)));
  const roomOk = room <= ROOM_BUDGET_KB * 1024;
  const wholeOk = whole <= TOTAL_BUDGET_KB * 1024;
  ok &&= roomOk && wholeOk;
  const mark = (bytes, fine) => `${kb(bytes)}${fine ? ' ' : '!'}`;
  console.log(locale.padEnd(8), mark(room, roomOk).padStart(22), mark(whole, wholeOk).padStart(12));
}
console.log(ok ? 'every language within budget' : 'OVER BUDGET (marked !)');
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
process.exit(ok ? 0 : 1);
