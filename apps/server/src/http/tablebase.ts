/**
 * `GET /api/tablebase?position=<R41 position>`: the sliding-phase tablebase's value of a Bagh
 * Chal position and of each legal move, best first (packages/engine/src/tablebase/FORMAT.md).
 * 200 `{ result, plies?, moves: [{ move, result, plies? }] }`; 400 for a bad position or one the
 * table does not hold; 503 while there is no table in `dir`, while its checksums are being
 * verified (at start, streamed), or when they do not match. The values ignore R13: the position
 * comes without its game's history.
 */
import { Tablebase, TablebaseMissing, tableGame } from '@bagh/engine/tablebase';
import { TablebaseQuery, type TablebaseReply } from '@bagh/protocol';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { parse } from './api.js';
import { HttpError } from './errors.js';

export interface TablebaseOptions {
  /** TABLEBASE_DIR, else DATA_DIR/tablebase. */
  readonly dir: string;
  readonly log: Logger;
  /** Called once the table's checksums match (the computer then plays from it). */
  readonly onVerified?: (dir: string) => void;
}

export async function tablebaseRoutes(fastify: FastifyInstance, opts: TablebaseOptions): Promise<void> {
  let table: Tablebase | null = null;
  let unavailable = 'this server has no tablebase (its operator builds one with pnpm tablebase)';
  try {
    const opened = Tablebase.open(opts.dir);
    unavailable = 'the tablebase is being verified; try again shortly';
    opened
      .verify()
      .then(() => {
        table = opened;
        opts.onVerified?.(opts.dir);
        opts.log.info({ dir: opts.dir }, 'tablebase verified');
      })
      .catch((error: unknown) => {
        opened.close();
        unavailable = `the tablebase is not usable: ${(error as Error).message}`;
        opts.log.error({ dir: opts.dir, err: error }, 'tablebase refused');
      });
    fastify.addHook('onClose', async () => opened.close());
  } catch (error) {
    if (!(error instanceof TablebaseMissing)) throw error;
    opts.log.info({ dir: opts.dir }, error.message);
  }

  fastify.get('/api/tablebase', async (request, reply) => {
    const query = parse(TablebaseQuery, request.query, 'tablebase query');
    // A bad position is told as such, table or not.
    const game = tableGame(query.position);
    if (!game.ok) throw new HttpError(400, 'BAD_REQUEST', game.error.message);
    if (table === null) throw new HttpError(503, 'UNAVAILABLE', unavailable);
    const answer = table.analyse(game.value);
    if (!answer.ok) throw new HttpError(400, 'BAD_REQUEST', answer.error.message);
    const body: TablebaseReply = answer.value;
    return reply.header('cache-control', 'public, max-age=86400').send(body);
  });
}
