// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCALE_NAMES } from '../i18n/names.js';
import { diagramSvg, howToPlayPage, type Text } from './page.js';
import { HOW_TO_PLAY_VARIANTS } from './paths.js';

const textOf = (locale: string): Text => {
  const messages = JSON.parse(
    readFileSync(new URL(`../../../messages/${locale}.json`, import.meta.url), 'utf8'),
  ) as Record<string, string>;
  return (key, inputs = {}) => {
    const value = messages[key];
    if (value === undefined) throw new Error(`${locale} has no ${key}`);
    return value.replace(/\{(\w+)\}/g, (_, name: string) => inputs[name] ?? `{${name}}`);
  };
};

describe('How to play pages', () => {
  it.each(
    Object.keys(LOCALE_NAMES).flatMap((locale) =>
      HOW_TO_PLAY_VARIANTS.map((variant) => ({ locale, variant })),
    ),
  )('$variant in $locale: every text filled, diagrams, no script', ({ locale, variant }) => {
    const html = howToPlayPage(variant, textOf(locale), {
      locale,
      languages: LOCALE_NAMES,
      stylesheet: null,
    });
    expect(html).toContain(`<html lang="${locale}">`);
    expect(html).not.toMatch(/\{\w+\}|<script/);
    expect(html.match(/<svg /g)?.length).toBeGreaterThanOrEqual(2);
    for (const other of Object.keys(LOCALE_NAMES).filter((l) => l !== locale))
      expect(html).toContain(`href="../${other}/${variant}.html"`);
  });

  it('draws R2’s diagonals only on the alquerque board, and stacks with their count', () => {
    const lines = (svg: string) => svg.match(/<line /g)?.length;
    const plain = { tigers: ['c3'], goats: { b2: 5 } } as const;
    expect(lines(diagramSvg({ ...plain, diagonals: false }, 'x'))).toBe(10);
    expect(lines(diagramSvg({ ...plain, diagonals: true }, 'x'))).toBe(16);
    expect(diagramSvg({ ...plain, diagonals: true }, 'x')).toContain(
      '<circle class="goat" cx="60" cy="140" r="11"/><text x="60" y="144">5</text>',
    );
  });
});
