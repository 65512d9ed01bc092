import { paraglideVitePlugin } from '@inlang/paraglide-js';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, type Plugin } from 'vite';
import { z } from 'zod';

/** The build's environment (blank counts as unset). */
const env = z
  .object({
    /** The server the dev server proxies to. */
    BAGH_API: z.url().default('http://localhost:3000'),
    /** `true`: the build writes source maps; a production build ships none by default. */
    BAGH_SOURCEMAP: z
      .enum(['true', 'false'], { message: 'BAGH_SOURCEMAP must be true or false' })
      .default('false')
      .transform((value) => value === 'true'),
  })
  .parse({
    BAGH_API: process.env.BAGH_API?.trim() || undefined,
    BAGH_SOURCEMAP: process.env.BAGH_SOURCEMAP?.trim() || undefined,
  });
const api = env.BAGH_API;

/**
 * Paraglide's locale modules (project.inlang/paraglide.config.js) come with messages/_index.js,
 * which imports every language and gives each message a dispatcher over all four: ~15 KB gz
 * more on a room's first load than the budget has room for. In the build it is replaced by one
 * line per message reading the page's language from src/lib/i18n (English static; the others a
 * chunk each, loaded before the app mounts). The types still come from paraglide's own file.
 */
function splitLocales(): Plugin {
  return {
    name: 'bagh:split-locales',
    transform(code, id) {
      if (!id.replaceAll('\\', '/').endsWith('/src/paraglide/messages/_index.js')) return null;
      const keys = [...code.matchAll(/^export const (\w+) =/gm)].map((match) => match[1]);
      // A changed output format must fail the build, not quietly ship an empty language.
      if (keys.length === 0) throw new Error(`bagh:split-locales: no messages found in ${id}`);
      return {
        code: [
          'import { message as __message } from "../../lib/i18n/i18n.svelte.ts";',
          ...keys.map((key) => `import { ${key} as __en_${key} } from "./en.js";`),
          ...keys.map((key) => `export const ${key} = /* @__PURE__ */ __message(__en_${key}, "${key}");`),
        ].join('\n'),
        map: null,
      };
    },
  };
}

export default defineConfig({
  plugins: [paraglideVitePlugin({ project: './project.inlang' }), splitLocales(), svelte()],
  server: {
    proxy: {
      '/api': api,
      '/healthz': api,
      '/socket.io': { target: api, ws: true },
    },
  },
  build: { target: 'es2022', sourcemap: env.BAGH_SOURCEMAP },
});
