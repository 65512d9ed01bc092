import { configure } from '@testing-library/svelte';
import { i18n } from './src/lib/i18n/i18n.svelte.js';
import { overwriteGetLocale } from './src/paraglide/runtime.js';

// waitFor/findBy* wait up to 1 s by default: too little for a loaded machine (a safety bound, not a claim of speed).
configure({ asyncUtilTimeout: 20_000 });

// The unit tests run paraglide's own messages (the build's go through i18n's `message`): they
// read the page's language from the same place.
overwriteGetLocale(() => i18n.locale);
