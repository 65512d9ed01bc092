/** The Svelte client: static files from WEB_DIST and the SPA fallback, or a note that it is not built. */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.js';

const NOT_BUILT = `Bagh server is running, but the web client is not built.
Build it with \`pnpm build\` at the repository root (it writes apps/web/dist), or set WEB_DIST.
The API is at /api/rooms; the game socket at /socket.io/.
`;

/**
 * The PWA's files that must be checked on every fetch: the service worker (the browser finds a
 * new version only when sw.js's bytes change), its workbox runtime and the web manifest.
 */
const REVALIDATED = /(?:^|\/)(?:sw\.js|workbox-[\w-]+\.js|manifest\.webmanifest)$/;

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/socket.io');

/** Whether `path` is a file now (false when it or a folder above it is missing). */
async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

export async function webRoutes(fastify: FastifyInstance, opts: { webDist: string }): Promise<void> {
  const indexHtml = join(opts.webDist, 'index.html');
  // Looked for on each page request (one stat), not once at start: a build or a deploy that
  // writes WEB_DIST after the server started is served at once, without a restart.
  const sendApp = async (reply: FastifyReply) =>
    (await isFile(indexHtml))
      ? reply.header('cache-control', 'no-cache').sendFile('index.html')
      : reply.code(200).type('text/plain; charset=utf-8').send(NOT_BUILT);

  if (!(await isFile(indexHtml))) {
    fastify.log.warn({ webDist: opts.webDist }, 'web client not built: served once index.html is there');
  }
  // Registered even while WEB_DIST is empty or missing: each request looks for its file.
  await fastify.register(fastifyStatic, {
    root: opts.webDist,
    index: ['index.html'],
    wildcard: true,
    suppressWarning: true,
    setHeaders: (reply, path) => {
      if (REVALIDATED.test(path)) reply.header('cache-control', 'no-cache');
      if (path.endsWith('.webmanifest')) reply.header('content-type', 'application/manifest+json');
    },
  });
  fastify.get('/', (_request, reply) => sendApp(reply));
  fastify.get('/r/:roomId', (_request, reply) => sendApp(reply));

  fastify.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (request.method === 'GET' && !isApi(request.url) && wantsHtml) return sendApp(reply);
    return sendError(reply, 404, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`);
  });
}
