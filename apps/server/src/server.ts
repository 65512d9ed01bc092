/** The entry point: read the config, build the app, listen, shut down gracefully on SIGTERM/SIGINT. */
import { pino } from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`bagh-server: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = pino({ level: config.LOG_LEVEL, base: { service: 'bagh-server' } });
  const app = await buildApp(config, { logger: log });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const address = await app.fastify.listen({ port: config.PORT, host: config.HOST });
  // Before "listening" is logged, so whoever waits for that line finds the metrics port open too.
  const metricsAddress = await app.metricsServer?.listen({
    port: config.METRICS_PORT ?? 0,
    host: config.HOST,
  });
  log.info({ address, metricsAddress, dataDir: config.DATA_DIR, webDist: config.WEB_DIST }, 'listening');
}

main().catch((error: unknown) => {
  pino({ base: { service: 'bagh-server' } }).fatal({ err: error }, 'failed to start');
  process.exit(1);
});
