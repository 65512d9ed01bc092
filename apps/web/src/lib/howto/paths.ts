import type { Variant } from '@bagh/rules';
import type { Locale } from '../i18n/i18n.svelte.js';

/** The variants with a page of their own; Bagh Bandi is Bagh Guti's game on another board. */
export const HOW_TO_PLAY_VARIANTS = ['bagh-chal', 'bagh-guti'] as const;

/**
 * The "How to play" page of `variant` in `locale`: static HTML written by the build
 * (vite.config.ts, howToPlayPages), no script of the app's.
 */
export function howToPlayPath(locale: Locale, variant: Variant = 'bagh-chal'): string {
  return `/how/${locale}/${variant === 'bagh-chal' ? 'bagh-chal' : 'bagh-guti'}.html`;
}
