// @vitest-environment node
/** The production build of the client ships no source maps (BAGH_SOURCEMAP=true opts in). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './harness.js';

const ASSETS = join(ROOT, 'apps/web/dist/assets');

describe('the built client', () => {
  it('has no source maps and points to none', () => {
    if (!existsSync(ASSETS)) throw new Error('run `pnpm build` first (apps/web/dist)');
    const files = readdirSync(ASSETS);
    expect(files.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(0);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    for (const file of files.filter((name) => name.endsWith('.js') || name.endsWith('.css'))) {
      expect(readFileSync(join(ASSETS, file), 'utf8'), file).not.toContain('sourceMappingURL');
    }
  });
});
