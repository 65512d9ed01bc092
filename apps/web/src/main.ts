import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { i18n } from './lib/i18n/i18n.svelte.js';
import { registerServiceWorker } from './lib/offline/network.svelte.js';
import { theme } from './lib/theme.svelte.js';

theme.apply();
// After a deploy, an open page's lazy chunks (a language, a page, the analysis) are gone from the
// server and from the new service worker's cache: a failed one reloads the page, in the new build.
// Once a minute at most: a chunk missing from the new build too must not reload it in a loop.
addEventListener('vite:preloadError', () => {
  try {
    if (Date.now() - Number(sessionStorage.getItem('bagh:reloaded')) < 60_000) return;
    sessionStorage.setItem('bagh:reloaded', String(Date.now()));
    location.reload();
  } catch {
    // no session storage: no reload
  }
});
// The page's language (its messages a chunk of their own) before anything is drawn. Not a
// top-level await: that would make Rollup split the entry's modules out of the language chunks' way.
void i18n.init().then(() => {
  const target = document.getElementById('app');
  if (target) mount(App, { target });
});
registerServiceWorker();
