import { paraglideVitePlugin } from '@inlang/paraglide-js';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineProject } from 'vitest/config';

/**
 * One project, 'web': component tests in jsdom (src/**), and the browser end-to-end test
 * (e2e/**, `@vitest-environment node`, its own timeouts) that drives Chromium against the real
 * server. Run only the components with `vitest run --project web apps/web/src`, only the
 * browser test with `vitest run --project web apps/web/e2e`.
 */
export default defineProject({
  // Paraglide compiles the messages (src/paraglide, generated) before the tests import them.
  plugins: [paraglideVitePlugin({ project: './project.inlang' }), svelte({ hot: false })],
  resolve: { conditions: ['browser'] },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'e2e/**/*.test.ts'],
    setupFiles: ['./vitest.setup.ts'],
    // Safety bounds for a loaded machine, not claims of speed.
    testTimeout: 60_000,
    expect: { poll: { timeout: 20_000 } },
  },
});
