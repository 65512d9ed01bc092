import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
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
  plugins: [svelte()],
  server: {
    proxy: {
      '/api': api,
      '/healthz': api,
      '/socket.io': { target: api, ws: true },
    },
  },
  build: { target: 'es2022', sourcemap: env.BAGH_SOURCEMAP },
});
