/**
 * The page's language: the stored choice, else the browser's first supported language, else
 * English. Messages read it (through `message` in the build, paraglide's getLocale in the unit
 * tests), so message calls in templates re-render when it changes; `<html lang>` follows it.
 */
import { baseLocale, isLocale, type Locale, locales } from '../../paraglide/runtime.js';

export type { Locale };
export { locales };

const KEY = 'bagh:locale';

export { LOCALE_NAMES } from './names.js';

type Message = (inputs?: Record<string, unknown>) => string;
/** Each language's texts in messages/en.json's order, filled by `load` (the page's language only). */
const table: { [L in Locale]?: readonly string[] } = {};

/**
 * A message in the page's language, its `{name}` placeholders filled from `inputs`. The build's
 * messages call this (vite.config.ts, splitLocales) with their place in the language tables.
 */
export function message(place: number): Message {
  return (inputs) =>
    (table[i18n.locale]?.[place] ?? '').replace(/\{(\w+)\}/g, (_, name: string) => String(inputs?.[name]));
}

/**
 * Each language's messages, English too: a chunk loaded only when that language is shown (in the
 * build, the array of its texts; in the unit tests, paraglide's module, which has no default).
 */
const LOADERS: { readonly [L in Locale]: () => Promise<object> } = {
  en: () => import('../../paraglide/messages/en.js'),
  ne: () => import('../../paraglide/messages/ne.js'),
  hi: () => import('../../paraglide/messages/hi.js'),
  bn: () => import('../../paraglide/messages/bn.js'),
};
const loaded = new Set<Locale>();

function stored(): Locale | null {
  try {
    const value = localStorage.getItem(KEY);
    return value && isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

/** The first of the browser's languages that Bagh speaks ("ne-NP" counts as "ne"). */
export function browserLocale(languages: readonly string[]): Locale | null {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split('-')[0] ?? '';
    if (isLocale(primary)) return primary;
  }
  return null;
}

/** The script's font (app.css), loaded before the text is drawn: Chromium kept tofu in text drawn while it loaded. */
const FONTS: { readonly [L in Locale]?: string } = {
  ne: '1em "Noto Sans Devanagari"',
  hi: '1em "Noto Sans Devanagari"',
  bn: '1em "Noto Sans Bengali"',
};
const SAMPLES: { readonly [L in Locale]?: string } = { ne: 'बाघ', hi: 'बाघ', bn: 'বাঘ' };

async function load(locale: Locale): Promise<void> {
  const loader = LOADERS[locale];
  const font = FONTS[locale];
  await Promise.all([
    !loaded.has(locale)
      ? loader().then((module) => {
          if ('default' in module) table[locale] = module.default as readonly string[];
          loaded.add(locale);
        })
      : null,
    // A font that fails to load leaves the system's fallback: not a reason to stop.
    font && typeof document !== 'undefined' && document.fonts
      ? document.fonts.load(font, SAMPLES[locale]).catch(() => [])
      : null,
  ]);
}

class I18n {
  #locale = $state<Locale>(baseLocale);

  get locale(): Locale {
    return this.#locale;
  }

  /** Loads the page's language before the app mounts (English on failure). */
  async init(): Promise<void> {
    const wanted =
      stored() ?? browserLocale(typeof navigator === 'undefined' ? [] : navigator.languages) ?? baseLocale;
    await this.#show(wanted).catch(() => this.#show(baseLocale));
  }

  /**
   * Switches the page's language (its messages loaded first) and remembers the choice. Resolves
   * false when its messages cannot be loaded: the page stays in its language (after a deploy,
   * main.ts reloads it, and the choice remembered shows in the new build).
   */
  set(locale: Locale): Promise<boolean> {
    try {
      localStorage.setItem(KEY, locale);
    } catch {
      // not remembered
    }
    return this.#show(locale).then(
      () => true,
      () => false,
    );
  }

  async #show(locale: Locale): Promise<void> {
    await load(locale);
    this.#locale = locale;
    this.#apply();
  }

  #apply(): void {
    if (typeof document !== 'undefined') document.documentElement.lang = this.#locale;
  }
}

export const i18n = new I18n();

/** Latin digits as the language writes them (Devanagari, Bengali): clocks, counts, scores. */
export function digits(text: string): string {
  const locale = i18n.locale;
  if (locale === 'en') return text;
  return text.replace(/[0-9]/g, (d) => nativeDigits(locale)[Number(d)] ?? d);
}

const digitCache = new Map<string, readonly string[]>();
function nativeDigits(locale: Locale): readonly string[] {
  let found = digitCache.get(locale);
  if (!found) {
    const format = new Intl.NumberFormat(locale, { useGrouping: false });
    found = Array.from({ length: 10 }, (_, d) => format.format(d));
    digitCache.set(locale, found);
  }
  return found;
}
