import type { Locale } from '../../paraglide/runtime.js';

/** Each language's own name, as its speakers write it (the switcher shows these, untranslated). */
export const LOCALE_NAMES: { readonly [L in Locale]: string } = {
  en: 'English',
  ne: 'नेपाली',
  hi: 'हिन्दी',
  bn: 'বাংলা',
};
