import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    // Two files at once even on two cores (vitest's default there is one): most of the suite
    // waits on sockets, child processes and the browser, not on the CPU.
    maxWorkers: 2,
  },
});
