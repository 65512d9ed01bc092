#!/usr/bin/env node
// Renders the app's icon (public/favicon.svg) to the PNGs the web manifest lists, with Debian's
// Chromium (CHROMIUM_PATH); run by hand when the icon changes, the PNGs are committed:
//   node apps/web/scripts/icons.mjs
// icon-<n>.png: the mark on a transparent square; icon-maskable-512.png: on a full-bleed
// background with the mark inside the 80 % safe zone that launchers may crop to a circle.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));
const svg = readFileSync(`${publicDir}favicon.svg`, 'utf8');
const ICONS = [
  { file: 'icon-192.png', size: 192, mark: 1, background: 'transparent' },
  { file: 'icon-512.png', size: 512, mark: 1, background: 'transparent' },
  { file: 'apple-touch-icon.png', size: 180, mark: 0.8, background: '#2b1a08' },
  { file: 'icon-maskable-512.png', size: 512, mark: 0.6, background: '#2b1a08' },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  for (const { file, size, mark, background } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const inner = Math.round(size * mark);
    await page.setContent(
      `<body style="margin:0;display:grid;place-items:center;width:${size}px;height:${size}px;background:${background}">` +
        svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `) +
        '</body>',
    );
    await page.screenshot({ path: `${publicDir}${file}`, omitBackground: background === 'transparent' });
    await page.close();
    console.log(file);
  }
} finally {
  await browser.close();
}
