import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

const api = process.env.BAGH_API ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [svelte()],
  server: {
    proxy: {
      '/api': api,
      '/healthz': api,
      '/socket.io': { target: api, ws: true },
    },
  },
  build: { target: 'es2022', sourcemap: true },
});
