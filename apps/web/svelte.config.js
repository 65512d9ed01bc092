import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

export default {
  preprocess: vitePreprocess(),
  // No `window.__svelte.v` marker in the bundle.
  compilerOptions: { runes: true, discloseVersion: false },
};
