import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, type AppOptions, buildApp } from '../src/app.js';
import { type Config, makeConfig } from '../src/config.js';
import { removeDir, startServer, type TestServer, tempDir } from './helpers.js';

const apps: App[] = [];
const dirs: string[] = [];
const servers: TestServer[] = [];
async function build(overrides: Partial<Config> = {}, options?: AppOptions): Promise<App> {
  const dir = tempDir();
  dirs.push(dir);
  const app = await buildApp(
    makeConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_DIST: join(dir, 'missing'), ...overrides }),
    options,
  );
  apps.push(app);
  return app;
}
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const server of servers) await server.close();
  for (const dir of dirs) removeDir(dir);
});

let app: App;
beforeAll(async () => {
  app = await build();
});

const post = (target: App, payload: unknown, headers: Record<string, string> = {}) =>
  target.fastify.inject({ method: 'POST', url: '/api/rooms', payload: payload as object, headers });

describe('POST /api/rooms', () => {
  it('creates a room: 201 with the creator seat token and the shareable url', async () => {
    const response = await post(app, { variant: 'bagh-chal', side: 'tiger' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      roomId: expect.stringMatching(/^[A-Za-z0-9_-]{12}$/),
      side: 'tiger',
      seatToken: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      url: `/r/${body.roomId}`,
    });
  });

  it('picks a side for "random" and accepts options', async () => {
    const sides = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const response = await post(app, {
        variant: 'bagh-guti',
        side: 'random',
        options: { multiJump: true },
      });
      expect(response.statusCode).toBe(201);
      sides.add(response.json().side);
    }
    expect([...sides].sort()).toEqual(['goat', 'tiger']);
    const { roomId } = (
      await post(app, { variant: 'bagh-guti', side: 'goat', options: { goatsFirst: true } })
    ).json();
    const snapshot = (await app.fastify.inject({ url: `/api/rooms/${roomId}` })).json();
    expect(snapshot.options).toEqual({ goatsFirst: true, multiJump: false, noRepeat: false });
    expect(snapshot.toMove).toBe('goat');
  });

  it('400 BAD_REQUEST with { error: { code, message } } for a bad body', async () => {
    const bodies: unknown[] = [
      {},
      { variant: 'chess', side: 'tiger' },
      { variant: 'bagh-chal', side: 'both' },
      { variant: 'bagh-chal', side: 'goat', options: { fast: true } },
      { variant: 'bagh-chal', side: 'goat', options: { multiJump: 'yes' } },
    ];
    for (const body of bodies) {
      const response = await post(app, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'BAD_REQUEST', message: expect.any(String) } });
    }
    const broken = await app.fastify.inject({
      method: 'POST',
      url: '/api/rooms',
      payload: '{"variant":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('BAD_REQUEST');
    const huge = await post(app, { variant: 'bagh-chal', side: 'goat', pad: 'x'.repeat(64 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe('BAD_REQUEST');
  });

  it('400 BAD_REQUEST naming an option the variant does not have (R12: Bagh Chal has one jump per turn)', async () => {
    const response = await post(app, { variant: 'bagh-chal', side: 'goat', options: { multiJump: true } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('multiJump'),
    });
    const plain = await post(app, { variant: 'bagh-chal', side: 'goat', options: { multiJump: false } });
    expect(plain.statusCode).toBe(201);
  });

  it('400 BAD_REQUEST naming a rule Bagh Chal fixes asked otherwise (R10, R13), not overridden', async () => {
    const response = await post(app, { variant: 'bagh-chal', side: 'goat', options: { goatsFirst: false } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('goatsFirst'),
    });
    const asFixed = await post(app, { variant: 'bagh-chal', side: 'goat', options: { noRepeat: true } });
    expect(asFixed.statusCode).toBe(201);
  });

  it('429 RATE_LIMITED past the per-address creation limit', async () => {
    const limited = await build({}, { roomCreationPerMinute: 3 });
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await post(limited, { variant: 'bagh-chal', side: 'goat' })).statusCode);
    expect(codes).toEqual([201, 201, 201, 429, 429]);
    const last = await post(limited, { variant: 'bagh-chal', side: 'goat' });
    expect(last.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    // Reading is not limited.
    expect((await limited.fastify.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('an absolute url when PUBLIC_URL is set', async () => {
    const withUrl = await build({ PUBLIC_URL: 'https://bagh.example.org' });
    const body = (await post(withUrl, { variant: 'bagh-chal', side: 'goat' })).json();
    expect(body.url).toBe(`https://bagh.example.org/r/${body.roomId}`);
  });
});

describe('GET /api/rooms/:roomId', () => {
  it('returns the public snapshot, never the seat token', async () => {
    const created = (await post(app, { variant: 'bagh-chal', side: 'goat' })).json();
    const response = await app.fastify.inject({ url: `/api/rooms/${created.roomId}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      roomId: created.roomId,
      version: 0,
      variant: 'bagh-chal',
      options: { goatsFirst: true, multiJump: false, noRepeat: true },
      position: 'T3T/5/5/5/T3T g 20 0',
      moves: [],
      toMove: 'goat',
      goatsInHand: 20,
      captured: 0,
      result: null,
      seats: { tiger: { taken: false, connected: false }, goat: { taken: true, connected: false } },
      spectators: 0,
      // Issue 5: the game lifecycle fields.
      at: expect.any(Number),
      timeControl: null,
      clock: null,
      drawOffer: null,
      rematch: null,
      abandon: null,
      public: false,
      imported: false,
    });
    expect(response.body).not.toContain(created.seatToken);
  });

  it('404 NOT_FOUND for an unknown room, a malformed id too (it names no room)', async () => {
    const missing = await app.fastify.inject({ url: '/api/rooms/abcdefghijkl' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    const malformed = await app.fastify.inject({ url: '/api/rooms/a%20b' });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json().error.code).toBe('NOT_FOUND');
    for (const url of ['/api/rooms/nope', '/api/rooms/nope/record']) {
      const short = await app.fastify.inject({ url });
      expect(short.statusCode).toBe(404);
      expect(short.json().error.code).toBe('NOT_FOUND');
    }
    const long = await app.fastify.inject({ url: `/api/rooms/${'a'.repeat(300)}` });
    expect(long.statusCode).toBe(404);
    expect(long.json().error.code).toBe('NOT_FOUND');
    const nowhere = await app.fastify.inject({ url: '/api/nothing-here' });
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json().error.code).toBe('NOT_FOUND');
  });
});

describe('operations', () => {
  it('/healthz', async () => {
    const health = await app.fastify.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
  });

  const expectMetrics = (response: {
    statusCode: number;
    headers: Record<string, unknown>;
    body: string;
  }) => {
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    for (const name of [
      'bagh_moves_total',
      'bagh_rooms_created_total',
      'bagh_connected_sockets',
      'bagh_move_handling_seconds_bucket',
      'bagh_limited_total',
      'process_cpu_user_seconds_total',
    ]) {
      expect(response.body).toContain(name);
    }
  };

  it('/metrics is not served without METRICS_PORT or METRICS_TOKEN', async () => {
    const response = await app.fastify.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
    expect(app.metricsServer).toBeUndefined();
  });

  it('/metrics on the main port with METRICS_TOKEN: a bearer token, else 401', async () => {
    const token = 'metrics-token-0123456789';
    const guarded = await build({ METRICS_TOKEN: token });
    expect((await post(guarded, { variant: 'bagh-chal', side: 'goat' })).statusCode).toBe(201);
    for (const authorization of [
      undefined,
      `Bearer ${token}x`,
      `Bearer ${token.slice(1)}`,
      token,
      'Bearer ',
    ]) {
      const refused = await guarded.fastify.inject({
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(refused.statusCode, String(authorization)).toBe(401);
      expect(refused.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
      expect(refused.headers['www-authenticate']).toBe('Bearer');
    }
    const served = await guarded.fastify.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expectMetrics(served);
    expect(served.body).toMatch(/bagh_rooms_created_total [1-9]/);
  });

  it('/metrics on METRICS_PORT only: its own listener, not the main port', async () => {
    const separate = await build({ METRICS_PORT: 0, HOST: '127.0.0.1' });
    expect((await separate.fastify.inject({ url: '/metrics' })).statusCode).toBe(404);
    const listener = separate.metricsServer;
    if (!listener) throw new Error('no metrics listener');
    const address = await listener.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/metrics`);
    expectMetrics({
      statusCode: response.status,
      headers: { 'content-type': response.headers.get('content-type') },
      body: await response.text(),
    });
    expect((await fetch(`${address}/api/live`)).status).toBe(404);
    // With a token as well, the metrics port asks for it too.
    const both = await build({ METRICS_PORT: 0, METRICS_TOKEN: 'metrics-token-0123456789' });
    expect((await both.metricsServer!.inject({ url: '/metrics' })).statusCode).toBe(401);
  });

  it('helmet headers, with a CSP that lets the Svelte app run', async () => {
    const response = await app.fastify.inject({ url: '/healthz' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    // No HSTS on plain http: it is sent only when PUBLIC_URL is https (below).
    expect(response.headers['strict-transport-security']).toBeUndefined();
    const plain = await build({ PUBLIC_URL: 'http://bagh.example.org' });
    expect(
      (await plain.fastify.inject({ url: '/healthz' })).headers['strict-transport-security'],
    ).toBeUndefined();
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const withUrl = await build({ PUBLIC_URL: 'https://bagh.example.org' });
    const secureResponse = await withUrl.fastify.inject({ url: '/healthz' });
    const secure = String(secureResponse.headers['content-security-policy']);
    expect(secure).toContain("connect-src 'self' wss://bagh.example.org");
    expect(secureResponse.headers['strict-transport-security']).toContain('max-age=');
  });
});

describe('the web client', () => {
  it('without a build, / says so in a small text page', async () => {
    const response = await app.fastify.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toContain('not built');
  });

  it('serves WEB_DIST with the SPA fallback for /r/:roomId and other html GETs', async () => {
    const dist = tempDir('bagh-web-');
    dirs.push(dist);
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Bagh</title><div id="app"></div>');
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log("bagh")');
    const web = await build({ WEB_DIST: dist });
    const html = { accept: 'text/html,application/xhtml+xml' };
    for (const url of ['/', '/r/abcdefghijkl', '/some/page']) {
      const response = await web.fastify.inject({ url, headers: html });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<title>Bagh</title>');
    }
    const asset = await web.fastify.inject({ url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    expect((await web.fastify.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await web.fastify.inject({ url: '/api/unknown', headers: html });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('NOT_FOUND');
  });

  it('serves a client built after the start, without a restart', async () => {
    const parent = tempDir('bagh-web-');
    dirs.push(parent);
    // Not there yet at the start: the deploy creates it.
    const dist = join(parent, 'dist');
    const server = await startServer({ config: { WEB_DIST: dist } });
    servers.push(server);
    dirs.push(server.dataDir);
    const page = (path: string) => fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
    expect(await (await page('/')).text()).toContain('not built');
    expect((await fetch(`${server.url}/assets/app.js`)).status).toBe(404);
    // A build (or a deploy) writes the client while the server runs.
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log("bagh")');
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Bagh</title>');
    for (const path of ['/', '/r/abcdefghijkl', '/some/page']) {
      const response = await page(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toContain('text/html');
      expect(await response.text(), path).toContain('<title>Bagh</title>');
    }
    const asset = await fetch(`${server.url}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log("bagh")');
  });

  it('serves the PWA files with their types, the service worker revalidated on every fetch', async () => {
    const dist = tempDir('bagh-web-');
    dirs.push(dist);
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Bagh</title>');
    writeFileSync(join(dist, 'sw.js'), 'self.skipWaiting()');
    writeFileSync(join(dist, 'workbox-1a2b3c.js'), 'define([], () => {})');
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Bagh"}');
    const web = await build({ WEB_DIST: dist });
    // A browser's own fetches: the service worker script asks for */*, the manifest too.
    const headers = { accept: '*/*', 'service-worker': 'script' };
    for (const [url, type] of [
      ['/sw.js', 'javascript'],
      ['/workbox-1a2b3c.js', 'javascript'],
      ['/manifest.webmanifest', 'application/manifest+json'],
    ] as const) {
      const response = await web.fastify.inject({ url, headers });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toContain(type);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.body, url).not.toContain('<title>');
    }
  });
});
