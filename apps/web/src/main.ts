import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { i18n } from './lib/i18n/i18n.svelte.js';
import { registerServiceWorker } from './lib/offline/network.svelte.js';
import { theme } from './lib/theme.svelte.js';

theme.apply();
// The page's language (its messages a chunk of their own) before anything is drawn. Not a
// top-level await: that would make Rollup split the entry's modules out of the language chunks' way.
void i18n.init().then(() => {
  const target = document.getElementById('app');
  if (target) mount(App, { target });
});
registerServiceWorker();
