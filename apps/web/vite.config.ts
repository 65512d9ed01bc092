import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { z } from 'zod';
import { howToPlayPage, type Text } from './src/lib/howto/page.js';
import { HOW_TO_PLAY_VARIANTS } from './src/lib/howto/paths.js';
import { LOCALE_NAMES } from './src/lib/i18n/names.js';

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

/** The messages of `locale` as written in messages/<locale>.json (project.inlang/settings.json). */
function readMessages(locale: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`./messages/${locale}.json`, import.meta.url), 'utf8'));
}

/** The How-to-play pages' own messages: written into their HTML, in no script (m.howto_* is no export). */
const isPageOnly = (key: string): boolean => key.startsWith('howto_');

const english = readMessages('en');
/** The scripts' messages, in messages/en.json's order: each language's table (splitLocales). */
const keys = Object.keys(english).filter((key) => key !== '$schema' && !isPageOnly(key));
const place = new Map(keys.map((key, i) => [key, i]));
const I18N = fileURLToPath(new URL('./src/lib/i18n/i18n.svelte.ts', import.meta.url));

/**
 * Paraglide's locale modules (project.inlang/paraglide.config.js) come with messages/_index.js,
 * which imports every language and gives each message a dispatcher over all four: ~15 KB gz
 * more on a room's first load than the budget has room for; and each language's module is one
 * function per message, exported under its key. In the build, neither ships:
 *  - _index.js becomes one line per message, `key = message(i)`, `i` its place in
 *    messages/en.json less the pages' howto_* (inlineMessages writes most of these calls where
 *    they are used); src/lib/i18n reads the page's language and fills the placeholders;
 *  - each language's module, English too, becomes the array of its texts in that order (no
 *    functions, no keys): a chunk of its own, loaded before the app mounts, and the only one a
 *    visitor loads (a Nepali page never fetches the English texts).
 * The types still come from paraglide's own files, and the unit tests run paraglide's output.
 */
function splitLocales(): Plugin {
  const text = (messages: Record<string, unknown>, key: string, locale: string): string => {
    const value = messages[key];
    if (typeof value !== 'string') throw new Error(`bagh:split-locales: ${locale} has no text for ${key}`);
    return value;
  };
  return {
    name: 'bagh:split-locales',
    transform(code, id) {
      const path = id.replaceAll('\\', '/');
      const module = /\/src\/paraglide\/messages\/(\w+)\.js$/.exec(path)?.[1];
      if (!module) return null;
      if (module === '_index') {
        const exported = [...code.matchAll(/^export const (\w+) =/gm)]
          .map((match) => match[1]!)
          .filter((key) => !isPageOnly(key));
        for (const key of exported) text(english, key, 'en');
        // A changed output format must fail the build, not quietly ship an empty language.
        if (exported.length === 0) throw new Error(`bagh:split-locales: no messages found in ${id}`);
        return {
          code: [
            'import { message as __message } from "../../lib/i18n/i18n.svelte.ts";',
            ...exported.map((key) => `export const ${key} = /* @__PURE__ */ __message(${place.get(key)});`),
          ].join('\n'),
          map: null,
        };
      }
      const messages = readMessages(module);
      return {
        code: `export default ${JSON.stringify(keys.map((key) => text(messages, key, module)))};`,
        map: null,
      };
    },
  };
}

/** `locale`'s message `key`, its placeholders filled. */
function textOf(locale: string): Text {
  const messages = readMessages(locale);
  return (key, inputs = {}) => {
    const value = messages[key];
    if (typeof value !== 'string') throw new Error(`bagh:how-to-play: ${locale} has no text for ${key}`);
    return value.replace(/\{(\w+)\}/g, (_, name: string) => inputs[name] ?? `{${name}}`);
  };
}

/**
 * The "How to play" pages (src/lib/howto/page.ts) as static files, /how/<locale>/<variant>.html:
 * written into the build, served by the dev server; they share the app's stylesheet.
 */
function howToPlayPages(): Plugin {
  const page = (
    locale: string,
    variant: (typeof HOW_TO_PLAY_VARIANTS)[number],
    stylesheet: string | null,
    font?: string,
  ) => howToPlayPage(variant, textOf(locale), { locale, languages: LOCALE_NAMES, stylesheet, font });
  /** The script font of each language that needs one (app.css's, as the build names it). */
  const SCRIPT: Readonly<Record<string, string>> = { ne: 'devanagari', hi: 'devanagari', bn: 'bengali' };
  const PATH = /^\/how\/(\w+)\/([\w-]+)\.html$/;
  const find = (url: string) => {
    const [, locale, variant] = PATH.exec(url) ?? [];
    const known = HOW_TO_PLAY_VARIANTS.find((v) => v === variant);
    return locale && locale in LOCALE_NAMES && known ? { locale, variant: known } : null;
  };
  return {
    name: 'bagh:how-to-play',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const found = find(req.url?.split('?')[0] ?? '');
        if (!found) return next();
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(page(found.locale, found.variant, '/src/app.css'));
      });
    },
    generateBundle(_, bundle) {
      // The page's entry (the engine's worker is an entry chunk too, with no stylesheet).
      const entry = Object.values(bundle).find(
        (file) => file.type === 'chunk' && file.isEntry && file.facadeModuleId?.endsWith('/index.html'),
      );
      const css = entry?.type === 'chunk' ? [...(entry.viteMetadata?.importedCss ?? [])][0] : undefined;
      if (!css) throw new Error('bagh:how-to-play: the entry chunk has no stylesheet');
      const fonts = Object.keys(bundle).filter((name) => name.endsWith('.woff2'));
      for (const locale of Object.keys(LOCALE_NAMES)) {
        const script = SCRIPT[locale];
        const font = script && fonts.find((name) => name.includes(`noto-sans-${script}-${script}-400`));
        if (script && !font) throw new Error(`bagh:how-to-play: no ${script} font in the build`);
        for (const variant of HOW_TO_PLAY_VARIANTS)
          this.emitFile({
            type: 'asset',
            fileName: `how/${locale}/${variant}.html`,
            source: page(locale, variant, `/${css}`, font ? `/${font}` : undefined),
          });
      }
    },
  };
}

/**
 * In the app's modules, `m.key(…)` (`m` as imported from src/paraglide/messages.js) becomes
 * `message(i)(…)`, `i` the key's place, written where it is used: no declaration per message in
 * _index.js, and no name per message in the entry's exports and each lazy chunk's imports
 * (~1.8 KB gz less in all, ~1.6 KB on a room's first load). Only known keys are rewritten (a
 * local `m.from` stays); what is left still goes through _index.js.
 */
function inlineMessages(): Plugin {
  const IMPORT = /import\s*\{\s*m(?:\s+as\s+(\w+))?\s*\}\s*from\s*["'][^"']*\/paraglide\/messages\.js["'];?/;
  return {
    name: 'bagh:inline-messages',
    enforce: 'post',
    transform(code, id) {
      if (!/\/src\/(?!paraglide\/)[^?]*\.(?:ts|svelte)$/.test(id.replaceAll('\\', '/'))) return null;
      const imported = IMPORT.exec(code);
      if (!imported) return null;
      const name = imported[1] ?? 'm';
      const use = new RegExp(`(?<![\\w$.])${name}\\.(\\w+)(?![\\w$])`, 'g');
      const inlined = code.replace(use, (whole, key: string) => {
        const i = place.get(key);
        return i === undefined ? whole : `__message(${i})`;
      });
      if (inlined === code) return null;
      return { code: `import { message as __message } from ${JSON.stringify(I18N)};\n${inlined}`, map: null };
    },
  };
}

/**
 * A plugin that edits one dependency's module (the file whose path ends in `file`): each
 * `[from, to]` of `edits` replaced once; a `from` not found fails the build (the dependency
 * changed: the edit must be looked at again, not silently skipped).
 */
function trimDependency(
  name: string,
  file: string,
  edits: readonly (readonly [string | RegExp, string])[],
): Plugin {
  return {
    name: `bagh:${name}`,
    transform(code, id) {
      if (!id.replaceAll('\\', '/').endsWith(file)) return null;
      let trimmed = code;
      for (const [from, to] of edits) {
        const next = trimmed.replace(from, to);
        if (next === trimmed) throw new Error(`bagh:${name}: ${file} changed (${String(from)} not found)`);
        trimmed = next;
      }
      return { code: trimmed, map: null };
    },
  };
}

/**
 * engine.io-client's table of default transports names WebTransport too, so it ships although
 * src/lib/net/connection.svelte.ts asks for `['websocket', 'polling']` only: the table without it
 * (the transports named behave the same; ~0.4 KB gz less on a room's first load). Its polling is
 * engine.io-client's fetch() transport, not the XMLHttpRequest one (~1 KB gz less): the same
 * protocol, and the page's requests are same-origin, so fetch's credentials mode changes nothing.
 */
const withoutWebTransport = () =>
  trimDependency('without-webtransport', '/engine.io-client/build/esm/transports/index.js', [
    [/^import \{ WT \} from .*$/m, ''],
    ['webtransport: WT,', ''],
    [/^import \{ XHR \} from .*$/m, 'import { Fetch as XHR } from "./polling-fetch.js";'],
  ]);

/**
 * The XMLHttpRequest transport, no longer in the table above, still ships for its top-level
 * unload listener (it aborts its own requests, of which there are now none): it is marked free of
 * side effects, so only an import of XHR itself would keep it.
 */
const withoutXhrPolling = (): Plugin => {
  const file = '/engine.io-client/build/esm/transports/polling-xhr.js';
  let seen = false;
  return {
    name: 'bagh:without-xhr-polling',
    apply: 'build',
    transform(code, id) {
      if (!id.replaceAll('\\', '/').endsWith(file)) return null;
      seen = true;
      return { code, map: null, moduleSideEffects: false };
    },
    // Moved or renamed, the module would ship again unnoticed: the build fails instead.
    buildEnd(error) {
      if (!error && !seen) this.error(`bagh:without-xhr-polling: ${file} was not found`);
    },
  };
};

/**
 * socket.io-parser looks through every packet for binary data (ArrayBuffer, Blob) to send it as
 * attachments, and can put such packets back together. @bagh/protocol is JSON only, both ways:
 * without that code (~0.6 KB gz less in every page's load); a binary packet, which neither side
 * sends, would be refused by the decoder as an unknown packet instead of reassembled.
 */
const withoutSocketBinary = () =>
  trimDependency('without-socket-binary', '/socket.io-parser/build/esm/index.js', [
    [
      'import { deconstructPacket, reconstructPacket } from "./binary.js";',
      'const deconstructPacket = () => { throw new Error("binary packets are not used"); }, reconstructPacket = deconstructPacket;',
    ],
    [
      'import { isBinary, hasBinary } from "./is-binary.js";',
      'const isBinary = () => false, hasBinary = isBinary;',
    ],
  ]);

/**
 * engine.io-parser's binary packets (base64 over long-polling, Blobs and ArrayBuffers): as with
 * withoutSocketBinary, nothing binary goes either way, so a packet is always its type and text.
 */
const withoutEngineBinary = () => [
  trimDependency('engine-binary-decode', '/engine.io-parser/build/esm/decodePacket.browser.js', [
    [
      'import { decode } from "./contrib/base64-arraybuffer.js";',
      'const decode = () => { throw new Error("binary packets are not used"); };',
    ],
  ]),
  trimDependency('engine-binary-encode', '/engine.io-parser/build/esm/encodePacket.browser.js', [
    [
      /const encodePacket = \(\{ type, data \}, supportsBinary, callback\) => \{[\s\S]*?\n\};/,
      'const encodePacket = ({ type, data }, _, callback) => callback(PACKET_TYPES[type] + (data || ""));',
    ],
  ]),
];

/**
 * engine.io-client's upgrade: a session opened on long-polling probes for a WebSocket and moves to
 * it. The page opens with a WebSocket (connection.svelte.ts) and falls back to long-polling only
 * where a WebSocket failed (a proxy that refuses them), so the probe would fail there too: a
 * session stays on the transport it opened with (~0.5 KB gz less in every page's load).
 */
const withoutUpgrade = () =>
  trimDependency('without-upgrade', '/engine.io-client/build/esm/socket.js', [
    [/\n {4}_probe\(name\) \{[\s\S]*?\n {4}\}\n/, '\n'],
    [
      /if \("open" === this\.readyState && this\.opts\.upgrade\) \{\s*for \(let i = 0; i < this\._upgrades\.length; i\+\+\) \{\s*this\._probe\(this\._upgrades\[i\]\);\s*\}\s*\}/,
      '',
    ],
  ]);

/**
 * The engine's worker as an entry chunk of the app's own build, not Vite's separate worker build
 * (an IIFE with its own copy of @bagh/rules): a module worker that imports the rules from the
 * chunk the page loads too (~3.7 KB gz less in all; ~0.7 KB more on a room's first load, the
 * rules being a chunk of their own). The dev server keeps Vite's own handling of the worker.
 */
function engineWorkerChunk(): Plugin {
  const client = '/src/lib/engine/engine-client.ts';
  const WORKER = "new Worker(new URL('./engine.worker.ts', import.meta.url)";
  return {
    name: 'bagh:engine-worker-chunk',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.replaceAll('\\', '/').endsWith(client)) return null;
      if (!code.includes(WORKER))
        this.error(`bagh:engine-worker-chunk: ${client} creates its worker differently`);
      const ref = this.emitFile({
        type: 'chunk',
        id: fileURLToPath(new URL('./src/lib/engine/engine.worker.ts', import.meta.url)),
        name: 'engine.worker',
      });
      return { code: code.replace(WORKER, `new Worker(import.meta.ROLLUP_FILE_URL_${ref}`), map: null };
    },
  };
}

export default defineConfig({
  plugins: [
    paraglideVitePlugin({ project: './project.inlang' }),
    splitLocales(),
    inlineMessages(),
    withoutWebTransport(),
    withoutXhrPolling(),
    withoutSocketBinary(),
    withoutEngineBinary(),
    withoutUpgrade(),
    howToPlayPages(),
    engineWorkerChunk(),
    svelte(),
    VitePWA({
      // main.ts registers the worker itself (a few bytes, counted in the budget); no reload
      // prompt is needed because navigations always go to the network first (below).
      injectRegister: false,
      registerType: 'autoUpdate',
      // The glob below precaches them already.
      includeManifestIcons: false,
      manifest: {
        name: 'Bagh — tigers and goats',
        short_name: 'Bagh',
        description: 'Bagh Chal, Bagh Guti and Bagh Bandi: play a friend online or the computer offline.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#15120e',
        theme_color: '#b85c00',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell, every lazy chunk and the engine's worker: /computer plays with no network.
        globPatterns: ['**/*.{js,css,html,svg,png}'],
        // The How-to-play pages stay network-only like every page (a precached one would be served
        // before the network answers, stale after a deploy); offline, a navigation gets the shell.
        globIgnores: ['how/**'],
        skipWaiting: true,
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        // No precache answer for `/` (workbox would map it to index.html): a page is never
        // served from the cache while the network answers, so a deploy shows on the next load.
        directoryIndex: '',
        navigateFallback: null,
        runtimeCaching: [
          {
            // Every page of the SPA (/, /computer, /live, /r/<id>) from the network; with none,
            // the precached shell, which plays the computer and says it is offline elsewhere.
            // (Serialised into sw.js: no closure. The server's paths are never answered with the
            // shell; nothing of theirs is cached: no route matches /api or /socket.io requests.)
            urlPattern: ({ request, url }) =>
              request.mode === 'navigate' &&
              !/^\/(?:api|socket\.io|healthz|metrics)(?:\/|$)/.test(url.pathname),
            handler: 'NetworkOnly',
            options: { precacheFallback: { fallbackURL: 'index.html' } },
          },
        ],
      },
    }),
  ],
  server: {
    proxy: {
      '/api': api,
      '/healthz': api,
      '/socket.io': { target: api, ws: true },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: env.BAGH_SOURCEMAP,
    // Terser, two passes: ~2.7 KB gz less on a room's first load, ~3.8 KB less in all, than esbuild;
    // without Vite's safari10 workarounds (the es2022 target has no Safari 10): ~0.15 KB less in all.
    minify: 'terser',
    terserOptions: { safari10: false, compress: { passes: 2 } },
    // No modulepreload polyfill: every browser of the es2022 target but Safari < 17 preloads
    // natively, and there a lazy chunk's imports are only fetched when it runs, not sooner.
    modulePreload: { polyfill: false },
    // A chunk under 1 KB (svelte's style helper, shared by lazy pages) goes where Rollup can put it
    // without changing what runs when: less gzip overhead in all, ~0.1 KB more on the first load.
    rollupOptions: { output: { experimentalMinChunkSize: 1024 } },
  },
});
