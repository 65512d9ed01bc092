/**
 * Where `/metrics` is served: on its own listener (METRICS_PORT, on HOST), or on the main port
 * only with `Authorization: Bearer <METRICS_TOKEN>`; with neither, nowhere (404). A token, when
 * set, is asked for on the metrics port too.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics.js';
import { installErrorHandler, sendError } from './errors.js';

export interface MetricsOptions {
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly port: number | undefined;
  readonly token: string | undefined;
}

/**
 * Adds `/metrics` to `main`, or builds the separate listener (returned, not yet listening;
 * it closes with `main`). Returns undefined when the metrics are on `main` or nowhere.
 */
export async function serveMetrics(
  main: FastifyInstance,
  opts: MetricsOptions,
): Promise<FastifyInstance | undefined> {
  if (opts.port === undefined && opts.token === undefined) return undefined;
  let target = main;
  if (opts.port !== undefined) {
    target = Fastify({
      loggerInstance: opts.log.child({ listener: 'metrics' }) as FastifyBaseLogger,
      logController: new LogController({ disableRequestLogging: true }),
    });
    installErrorHandler(target);
    main.addHook('onClose', () => target.close());
  }
  const authorized = opts.token === undefined ? () => true : bearerCheck(opts.token);
  target.get('/metrics', async (request, reply) => {
    if (!authorized(request)) {
      return sendError(
        reply.header('www-authenticate', 'Bearer'),
        401,
        'UNAUTHORIZED',
        'a metrics token is required',
      );
    }
    return reply
      .header('cache-control', 'no-store')
      .type(opts.metrics.registry.contentType)
      .send(await opts.metrics.registry.metrics());
  });
  if (target === main) return undefined;
  await target.ready();
  return target;
}

/** Compares the request's bearer token with `token` in constant time (hashes of equal length). */
function bearerCheck(token: string): (request: FastifyRequest) => boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const expected = digest(token);
  return (request) => {
    const match = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? '');
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}
