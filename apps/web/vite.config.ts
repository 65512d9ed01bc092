import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
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

export default defineConfig({
  plugins: [
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
  build: { target: 'es2022', sourcemap: env.BAGH_SOURCEMAP },
});
