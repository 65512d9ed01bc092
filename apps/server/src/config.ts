/** Configuration from the environment, parsed by zod; a bad value stops the boot with a clear message. */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** apps/web/dist, seen from this file (src/ when run by tests, dist/ when built). */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Every core but one (the event loop's), and at least one. */
export const DEFAULT_BOT_WORKERS = Math.max(1, availableParallelism() - 1);

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  PUBLIC_URL: z
    .url({
      protocol: /^https?$/,
      message: 'PUBLIC_URL must be an http(s) URL, e.g. https://bagh.example.org',
    })
    // Room links are PUBLIC_URL + /r/<id>: the app is served at the root, so only an origin fits.
    .refine((url) => {
      const { pathname, search, hash } = new URL(url);
      return pathname === '/' && search === '' && hash === '';
    }, 'PUBLIC_URL must be an origin, with no path, query or fragment, e.g. https://bagh.example.org')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  WEB_DIST: z.string().min(1).default(DEFAULT_WEB_DIST),
  /** The sliding-phase tablebase built by `pnpm tablebase` (default: DATA_DIR/tablebase). */
  TABLEBASE_DIR: z.string().min(1).optional(),
  /** How long (ms) a player's connections must all be gone before the opponent may claim the game. */
  ABANDON_GRACE_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  /**
   * How often (ms) a node tries again to load the timed games in play that failed to load (a
   * start during a store outage), to end them on time; with several nodes, every 20× this too.
   */
  TIMED_GAMES_CHECK_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  /**
   * Several nodes: how often (ms) a node looks at how many nodes there are; when one left (a crash
   * sends no disconnects), the rooms it shares with another count who is here again.
   */
  PRESENCE_RECOUNT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Behind a load balancer: take the client address from X-Forwarded-For (rate limits per client). */
  TRUST_PROXY: z
    .enum(['true', 'false'], { message: 'TRUST_PROXY must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * Worker threads searching the computer's moves (0: search on the main thread; tests only).
   * Default: a core each, less the one the event loop needs.
   */
  BOT_WORKERS: z.coerce.number().int().min(0).max(64).default(DEFAULT_BOT_WORKERS),
  /** The least time (ms) before the computer answers a move, so the player sees their move land. */
  BOT_MIN_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(400),
  /** Set: rooms are kept in this PostgreSQL (the system of record of several nodes); unset: SQLite. */
  DATABASE_URL: z
    .url({
      protocol: /^postgres(ql)?$/,
      message: 'DATABASE_URL must be a postgres:// or postgresql:// URL, e.g. postgres://bagh@db:5432/bagh',
    })
    .optional(),
  /**
   * Set (with DATABASE_URL): several nodes share events, presence and rate limits through this
   * Redis. It holds nothing that may not be lost.
   */
  REDIS_URL: z
    .url({
      protocol: /^rediss?$/,
      message: 'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://localhost:6379',
    })
    .optional(),
  /** Rooms one client address may create per minute: new rooms, imports and rematches together. */
  ROOMS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /** Archive listings (`GET /api/games`) one client address may ask for per minute. */
  LISTINGS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
  /** Games against the computer one address may have in play on this node at once. */
  BOT_GAMES_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(3),
  /** Sockets one address may hold open on this node at once. */
  MAX_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(200),
  /** Set: /metrics is served on this port of HOST only (not on PORT). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  /** Set: /metrics answers only requests with `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z
    .string()
    .min(16, { message: 'METRICS_TOKEN must be at least 16 characters (a random secret)' })
    .regex(/^[\x21-\x7e]+$/, { message: 'METRICS_TOKEN must be printable ASCII without spaces' })
    .optional(),
});

/** Why REDIS_URL cannot be used as set, or null: several nodes need PostgreSQL for their rooms. */
export function clusterProblem(env: { REDIS_URL?: string | undefined; DATABASE_URL?: string | undefined }) {
  if (env.REDIS_URL === undefined || env.DATABASE_URL !== undefined) return null;
  return (
    'REDIS_URL needs DATABASE_URL: several nodes keep their rooms in PostgreSQL, and Redis only carries ' +
    'what may be lost (Socket.IO traffic, presence, rate limits). Set DATABASE_URL=postgres://… too, ' +
    'or unset REDIS_URL to run one node on SQLite'
  );
}

/** Checks across variables. */
const ConfigSchema = EnvSchema.refine(
  (env) => env.METRICS_PORT === undefined || env.PORT === 0 || env.METRICS_PORT !== env.PORT,
  {
    path: ['METRICS_PORT'],
    message: 'METRICS_PORT must differ from PORT (metrics are kept off the public port)',
  },
).superRefine((env, context) => {
  const problem = clusterProblem(env);
  if (problem !== null) context.addIssue({ code: 'custom', path: ['REDIS_URL'], message: problem });
});

export type Config = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Parses the environment (values trimmed; blank ones count as unset, so `PORT=" "` is not 0);
 * throws a ConfigError naming every bad variable.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(EnvSchema.shape)
      .map((key) => [key, env[key]?.trim()] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = ConfigSchema.safeParse(relevant);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
}

/** A complete config for tests and tools: defaults with the given overrides. */
export function makeConfig(overrides: Partial<Config> = {}): Config {
  return { ...EnvSchema.parse({}), ...overrides };
}
