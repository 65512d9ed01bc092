#!/usr/bin/env node
// Prints the gzipped size of each JS file in apps/web/dist/assets and the total against the budget.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 80;
const assets = fileURLToPath(new URL('../dist/assets/', import.meta.url));

let files;
try {
  files = readdirSync(assets).filter((f) => f.endsWith('.js'));
} catch {
  console.error(`no build found at ${assets}; run \`pnpm --filter @bagh/web build\` first`);
  process.exit(2);
}
if (files.length === 0) {
  console.error(`no JS files in ${assets}`);
  process.exit(2);
}

const kb = (n) => (n / 1024).toFixed(2);
let raw = 0;
let gz = 0;
console.log('file'.padEnd(40), 'raw KB'.padStart(9), 'gzip KB'.padStart(9));
for (const file of files.sort()) {
  const bytes = readFileSync(join(assets, file));
  const zipped = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += zipped;
  console.log(file.padEnd(40), kb(bytes.length).padStart(9), kb(zipped).padStart(9));
}
const ok = gz <= BUDGET_KB * 1024;
console.log('total'.padEnd(40), kb(raw).padStart(9), kb(gz).padStart(9));
console.log(`budget: ${kb(gz)} KB of ${BUDGET_KB} KB gzipped — ${ok ? 'within budget' : 'OVER BUDGET'}`);
process.exit(ok ? 0 : 1);
