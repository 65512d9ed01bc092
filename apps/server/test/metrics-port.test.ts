/** The built server as a process (`node dist/server.js`): METRICS_PORT gets its own listener. Run after `pnpm build`. */
import { describe, expect, it } from 'vitest';
import { freePort } from '../support/local-redis.js';
import { startServerProcess } from '../support/local-server.js';
import { perTest } from './helpers.js';

const fixture = perTest();

describe('METRICS_PORT', () => {
  it('serves /metrics on its own port of HOST, and not on the main port', async () => {
    const dataDir = fixture.dataDir();
    const metricsPort = await freePort();
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      WEB_DIST: `${dataDir}/none`,
      METRICS_PORT: String(metricsPort),
    });
    fixture.defer(() => server.stop());
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('bagh_rooms_created_total');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/live`)).status).toBe(404);
  });
});
