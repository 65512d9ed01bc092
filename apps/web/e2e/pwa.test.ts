// @vitest-environment node
/**
 * End to end in Chromium: the installable app and its service worker. After one visit, /computer
 * loads and plays with the server stopped and the browser offline; the home page says it is
 * offline; and a deploy (a changed build in WEB_DIST) shows on the very next online load, then
 * replaces the offline copy too.
 *
 * The server serves a copy of apps/web/dist, which the deploy test edits. Needs `pnpm build`.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { pageOpener, ROOT, shownMove, useHarness } from './harness.js';

const dist = mkdtempSync(join(tmpdir(), 'bagh-pwa-dist-'));
cpSync(join(ROOT, 'apps/web/dist'), dist, { recursive: true });

/** Waits until the page is controlled by an activated service worker. */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** The precached URLs (with workbox's revision query) of the page's origin. */
const precached = (page: Page): Promise<string[]> =>
  page.evaluate(async () => {
    const name = (await caches.keys()).find((key) => key.startsWith('workbox-precache'));
    return name ? (await (await caches.open(name)).keys()).map((request) => request.url) : [];
  });

describe('web e2e: the installable app, offline and after a deploy (Chromium)', () => {
  const harness = useHarness({ WEB_DIST: dist });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('after one visit, /computer loads and plays with no network; home says it is offline', {
    timeout: 90_000,
  }, async () => {
    const { open, errors } = pageOpener(harness().browser);
    const page = await open('pwa');
    const manifest = await fetch(`${harness().base}/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).toContain('application/manifest+json');
    expect(await manifest.json()).toMatchObject({ short_name: 'Bagh', start_url: '/' });

    await page.goto(`${harness().base}/computer`);
    await page.locator('[data-offline-setup]').waitFor();
    await controlled(page);

    // The network is gone: the server is down and the browser is offline.
    await harness().stopServer('SIGTERM');
    await page.context().setOffline(true);
    try {
      await page.reload();
      await page.getByText('Bagh Chal', { exact: true }).click();
      await page.locator('label.side', { hasText: 'Goats' }).click();
      await page.locator('select[name="level"]').selectOption('beginner');
      await page.getByRole('button', { name: 'Start the game' }).click();
      await page.locator('.status.turn').waitFor();
      await page.click('[data-point="c3"]');
      expect(await (await shownMove(page, 1)).textContent()).toBe('G@c3');
      // The computer answers, from the engine's worker loaded from the cache.
      expect(await (await shownMove(page, 2)).textContent()).toMatch(/^[a-e][1-5][-x][a-e][1-5]/);

      await page.goto(`${harness().base}/`);
      expect(await page.locator('[data-offline-note]').textContent()).toBe(
        'You are offline — you can still play the computer.',
      );
      await page.context().setOffline(false);
      await expect.poll(() => page.locator('[data-offline-note]').count()).toBe(0);
    } finally {
      await page.context().setOffline(false);
      await harness().startServer();
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a deploy shows on the next online load, and then offline too', { timeout: 90_000 }, async () => {
    const { open, errors } = pageOpener(harness().browser);
    const page = await open('deploy');
    await page.goto(`${harness().base}/computer`);
    await controlled(page);
    expect(await page.locator('meta[name="bagh-build"]').count()).toBe(0);

    // "Deploy": a new index.html, and a service worker whose precache lists its new revision.
    const indexFile = join(dist, 'index.html');
    writeFileSync(
      indexFile,
      readFileSync(indexFile, 'utf8').replace('<head>', '<head><meta name="bagh-build" content="2">'),
    );
    const swFile = join(dist, 'sw.js');
    const sw = readFileSync(swFile, 'utf8');
    expect(sw).toMatch(/url:"index.html",revision:"[0-9a-f]+"/);
    writeFileSync(swFile, sw.replace(/(url:"index.html",revision:")[0-9a-f]+"/, '$1deploy2"'));

    // The next load is the new version at once: pages come from the network first.
    await page.reload();
    expect(await page.locator('meta[name="bagh-build"]').getAttribute('content')).toBe('2');
    // The new worker installs, takes over and replaces the offline copy.
    await expect
      .poll(async () =>
        (await precached(page)).some((url) => url.includes('index.html?__WB_REVISION__=deploy2')),
      )
      .toBe(true);
    await expect
      .poll(async () => (await precached(page)).filter((url) => url.includes('index.html')).length)
      .toBe(1);

    await page.context().setOffline(true);
    await harness().stopServer('SIGTERM');
    try {
      await page.reload();
      expect(await page.locator('meta[name="bagh-build"]').getAttribute('content')).toBe('2');
      await page.locator('[data-offline-setup]').waitFor();
    } finally {
      await page.context().setOffline(false);
      await harness().startServer();
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
