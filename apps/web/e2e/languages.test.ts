// @vitest-environment node
/**
 * The client in each of its languages, in Chromium: chosen from the browser's languages, the
 * `lang` attribute, a translated heading, no English message left on the page, the script's font
 * in use (Debian's Chromium has none for Devanagari or Bengali), a screenshot each in artifacts/;
 * then switched in the header and remembered after a reload.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, ROOT, useHarness } from './harness.js';

type Messages = Record<string, string>;
const messages = (locale: string): Messages =>
  JSON.parse(readFileSync(join(ROOT, 'apps/web/messages', `${locale}.json`), 'utf8')) as Messages;
const english = messages('en');

const LANGUAGES = [
  { locale: 'en', browser: 'en-US', font: null },
  { locale: 'ne', browser: 'ne-NP', font: 'Noto Sans Devanagari' },
  { locale: 'hi', browser: 'hi-IN', font: 'Noto Sans Devanagari' },
  { locale: 'bn', browser: 'bn-BD', font: 'Noto Sans Bengali' },
] as const;

/** English messages (of two words or more, translated differently) still on the page. */
async function englishLeft(page: Page, translated: Messages): Promise<string[]> {
  const text = (await page.locator('body').textContent()) ?? '';
  return Object.entries(english)
    .filter(([key, value]) => key !== '$schema' && value.includes(' ') && translated[key] !== value)
    .map(([, value]) => value.replace(/\{\w+\}.*$/, '').trim())
    .filter((value) => value.includes(' ') && text.includes(value));
}

describe('web e2e: languages (Chromium)', () => {
  const harness = useHarness();

  it.each(LANGUAGES)('shows the home page in $locale from the browser’s language', async (language) => {
    const { base, browser } = harness();
    const translated = messages(language.locale);
    const context = await browser.newContext({
      locale: language.browser,
      viewport: { width: 1100, height: 900 },
    });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/`);
      await expect.poll(() => page.locator('h1').textContent()).toBe(translated.home_title);
      expect(await page.locator('html').getAttribute('lang')).toBe(language.locale);
      expect(await page.locator('nav').textContent()).toContain(translated.nav_live);
      expect(await page.locator('.choice').first().textContent()).toContain(translated.variant_bagh_chal);
      if (language.locale !== 'en') expect(await englishLeft(page, translated)).toEqual([]);
      if (language.font) {
        await page.evaluate(() => document.fonts.ready);
        const font = language.font;
        await expect
          .poll(() => page.evaluate((family) => document.fonts.check(`16px "${family}"`), font))
          .toBe(true);
      }
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `home-${language.locale}.png`), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('switches language in the header and remembers it after a reload', async () => {
    const { base, browser } = harness();
    const context = await browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/computer`);
      await expect.poll(() => page.locator('h1').textContent()).toBe(english.computer_title);
      await page.selectOption('select[data-language]', 'bn');
      const bengali = messages('bn');
      await expect.poll(() => page.locator('h1').textContent()).toBe(bengali.computer_title);
      expect(await page.locator('html').getAttribute('lang')).toBe('bn');
      await page.reload();
      await expect.poll(() => page.locator('h1').textContent()).toBe(bengali.computer_title);
      expect(await page.locator('html').getAttribute('lang')).toBe('bn');
      expect(await page.locator('select[data-language]').inputValue()).toBe('bn');
      expect(await englishLeft(page, bengali)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
