// Shared by the Vite plugin (build, dev, vitest) and the CLI (`pnpm typecheck` compiles first).
// The message-format plugin is a local module path in settings.json: inlang would otherwise
// fetch it from a CDN at every compile, which fails offline.
import { defineConfig } from '@inlang/paraglide-js';

export default defineConfig({
  outdir: './src/paraglide',
  // One module per locale: the build loads only the page's language (see vite.config.ts).
  outputStructure: 'locale-modules',
  emitGitIgnore: false,
  emitPrettierIgnore: false,
  emitReadme: false,
});
