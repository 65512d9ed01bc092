/** The Svelte client: static files from WEB_DIST and the SPA fallback, or a note that it is not built. */
import { existsSync } from 'node:fs';
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

export async function webRoutes(fastify: FastifyInstance, opts: { webDist: string }): Promise<void> {
  const built = existsSync(join(opts.webDist, 'index.html'));

  const sendApp = (reply: FastifyReply) =>
    built
      ? reply.header('cache-control', 'no-cache').sendFile('index.html')
      : reply.code(200).type('text/plain; charset=utf-8').send(NOT_BUILT);

  if (built) {
    await fastify.register(fastifyStatic, {
      root: opts.webDist,
      index: ['index.html'],
      wildcard: true,
      setHeaders: (reply, path) => {
        if (REVALIDATED.test(path)) reply.header('cache-control', 'no-cache');
        if (path.endsWith('.webmanifest')) reply.header('content-type', 'application/manifest+json');
      },
    });
  } else {
    fastify.get('/', (_request, reply) => sendApp(reply));
  }
  fastify.get('/r/:roomId', (_request, reply) => sendApp(reply));

  fastify.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (request.method === 'GET' && !isApi(request.url) && wantsHtml) return sendApp(reply);
    return sendError(reply, 404, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`);
  });
}
