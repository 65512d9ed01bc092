import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { ConfigError, DEFAULT_BOT_WORKERS, DEFAULT_WEB_DIST, loadConfig, makeConfig } from '../src/config.js';

describe('config from the environment', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      WEB_DIST: DEFAULT_WEB_DIST,
      ABANDON_GRACE_MS: 30_000,
      TIMED_GAMES_CHECK_MS: 15_000,
      PRESENCE_RECOUNT_MS: 10_000,
      TRUST_PROXY: false,
      BOT_WORKERS: DEFAULT_BOT_WORKERS,
      BOT_MIN_DELAY_MS: 400,
      ROOMS_PER_ADDRESS_PER_MINUTE: 30,
      LISTINGS_PER_ADDRESS_PER_MINUTE: 300,
      BOT_GAMES_PER_ADDRESS: 3,
      MAX_SOCKETS_PER_ADDRESS: 200,
    });
    // A core each but the event loop's, and at least one.
    expect(DEFAULT_BOT_WORKERS).toBe(Math.max(1, availableParallelism() - 1));
    expect(DEFAULT_WEB_DIST.replaceAll('\\', '/')).toMatch(/apps\/web\/dist$/);
  });

  it('parses what is set, ignoring empty strings', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/bagh',
      LOG_LEVEL: 'debug',
      PUBLIC_URL: 'https://bagh.example.org/',
      WEB_DIST: '',
      BOT_MIN_DELAY_MS: '  ',
    });
    expect(config).toMatchObject({ PORT: 8080, HOST: '127.0.0.1', LOG_LEVEL: 'debug' });
    expect(config.PUBLIC_URL).toBe('https://bagh.example.org');
    expect(config.WEB_DIST).toBe(DEFAULT_WEB_DIST);
    expect(config.BOT_MIN_DELAY_MS).toBe(400); // blank is unset, not 0
  });

  it('fails fast, naming every bad variable', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', PUBLIC_URL: 'ftp://x' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT/);
    expect(attempt).toThrow(/LOG_LEVEL/);
    expect(attempt).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    for (const withParts of [
      'https://bagh.example.org/play',
      'https://bagh.example.org/?x=1',
      'https://bagh.example.org/#r',
    ])
      expect(() => loadConfig({ PUBLIC_URL: withParts })).toThrow(/PUBLIC_URL must be an origin/);
  });

  it('parses the bot settings', () => {
    expect(loadConfig({ BOT_WORKERS: '0', BOT_MIN_DELAY_MS: '0' })).toMatchObject({
      BOT_WORKERS: 0,
      BOT_MIN_DELAY_MS: 0,
    });
    expect(() => loadConfig({ BOT_WORKERS: '-1' })).toThrow(/BOT_WORKERS/);
  });

  it('parses the limits and the metrics settings', () => {
    expect(
      loadConfig({
        ROOMS_PER_ADDRESS_PER_MINUTE: '10',
        BOT_GAMES_PER_ADDRESS: '1',
        MAX_SOCKETS_PER_ADDRESS: '50',
        METRICS_PORT: '9100',
        METRICS_TOKEN: 'a-long-random-secret',
      }),
    ).toMatchObject({
      ROOMS_PER_ADDRESS_PER_MINUTE: 10,
      BOT_GAMES_PER_ADDRESS: 1,
      MAX_SOCKETS_PER_ADDRESS: 50,
      METRICS_PORT: 9100,
      METRICS_TOKEN: 'a-long-random-secret',
    });
    expect(() => loadConfig({ BOT_GAMES_PER_ADDRESS: '0' })).toThrow(/BOT_GAMES_PER_ADDRESS/);
    expect(() => loadConfig({ MAX_SOCKETS_PER_ADDRESS: 'many' })).toThrow(/MAX_SOCKETS_PER_ADDRESS/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has spaces in the middle' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ PORT: '9100', METRICS_PORT: '9100' })).toThrow(/METRICS_PORT must differ/);
  });

  it('parses a PostgreSQL and a Redis URL and refuses anything else, naming the variable', () => {
    const blank = loadConfig({ REDIS_URL: '', DATABASE_URL: ' ' });
    expect([blank.REDIS_URL, blank.DATABASE_URL]).toEqual([undefined, undefined]);
    const db = 'postgres://bagh:secret@db:5432/bagh';
    expect(loadConfig({ DATABASE_URL: db }).DATABASE_URL).toBe(db);
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/bagh' }).DATABASE_URL).toBe('postgresql://db/bagh');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/bagh' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'db:5432' })).toThrow(/DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: db, REDIS_URL: 'redis://redis:6379' }).REDIS_URL).toBe(
      'redis://redis:6379',
    );
    expect(loadConfig({ DATABASE_URL: db, REDIS_URL: 'rediss://user:pw@host:6380/2' }).REDIS_URL).toBe(
      'rediss://user:pw@host:6380/2',
    );
    expect(() => loadConfig({ DATABASE_URL: db, REDIS_URL: 'http://localhost:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ DATABASE_URL: db, REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses REDIS_URL without DATABASE_URL, saying why: several nodes keep their rooms in PostgreSQL', async () => {
    const attempt = () => loadConfig({ REDIS_URL: 'redis://redis:6379' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/REDIS_URL needs DATABASE_URL: several nodes keep their rooms in PostgreSQL/);
    // A config made in code is refused by the app as well.
    await expect(
      buildApp(makeConfig({ REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'silent' })),
    ).rejects.toThrow(ConfigError);
  });
});
