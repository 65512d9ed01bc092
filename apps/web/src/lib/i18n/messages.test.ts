// @vitest-environment node
/**
 * Every language has every message, with the same placeholders: paraglide would quietly fall
 * back to English for a missing one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserLocale } from './i18n.svelte.js';

const LOCALES = ['en', 'ne', 'hi', 'bn'] as const;
const read = (locale: string): Record<string, string> => {
  const { $schema: _, ...messages } = JSON.parse(
    readFileSync(new URL(`../../../messages/${locale}.json`, import.meta.url), 'utf8'),
  ) as Record<string, string>;
  return messages;
};
const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

describe('messages', () => {
  const english = read('en');

  it.each(LOCALES.slice(1))('%s has every English key and no other', (locale) => {
    const messages = read(locale);
    expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
  });

  it.each(LOCALES.slice(1))('%s lists its keys in English’s order (one diff per message)', (locale) => {
    expect(Object.keys(read(locale))).toEqual(Object.keys(english));
  });

  it.each(LOCALES.slice(1))('%s keeps each message’s placeholders and translates it', (locale) => {
    const messages = read(locale);
    for (const [key, text] of Object.entries(english)) {
      expect(placeholders(messages[key] ?? ''), key).toEqual(placeholders(text));
      expect(messages[key]?.trim() ?? '', key).not.toBe('');
    }
  });

  it('picks the first of the browser’s languages that Bagh speaks', () => {
    expect(browserLocale(['fr-FR', 'ne-NP', 'en'])).toBe('ne');
    expect(browserLocale(['bn-BD'])).toBe('bn');
    expect(browserLocale(['de'])).toBeNull();
  });
});
