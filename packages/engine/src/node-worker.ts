/**
 * Entry of a Node worker thread (`@bagh/engine/node-worker`): answers `{ id, request }` bot-move
 * requests with `{ id, ok: true, reply }` or `{ id, ok: false, error }`, one at a time. The
 * searcher (and its transposition table) lives as long as the worker; the endgame table is solved
 * as the worker starts, so no player's move waits for it.
 *
 * `workerData.stop`, an Int32Array on a SharedArrayBuffer, cancels a search: the parent stores
 * the id of a request it no longer wants, and that search ends at its next clock check (a
 * message could not arrive while the search holds the thread).
 *
 * `workerData.tablebase`, or a later `{ tablebase }` message, names a verified sliding-phase
 * tablebase: `max` then plays its fastest win wherever the table holds one, in its draws the move
 * that best runs the race for unrepeated moves (tablebase/race.ts), and its search values the
 * positions where the hand empties (or a goat falls) by the table's wins and losses (search.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { useMoveOracle, useTableProbe } from './bot.js';
import { baghChalEndgame } from './endgame.js';
import { type BotMoveRequest, botMove } from './request.js';
import { Searcher } from './search.js';
import { raceOracle } from './tablebase/oracle.js';
import { searchProbe, Tablebase } from './tablebase/probe.js';

type WorkerMessage = { id: number; request: BotMoveRequest } | { tablebase: string };

const searcher = new Searcher();
setImmediate(baghChalEndgame);
const { stop, tablebase } = (workerData ?? {}) as { stop?: Int32Array; tablebase?: string | null };
if (tablebase) playFromTablebase(tablebase);

/** The table in use: closed when another takes its place (its files stay open until then). */
let inUse: Tablebase | null = null;

/** A table that cannot be opened (deleted since it was verified) leaves `max` to its search. */
function playFromTablebase(dir: string): void {
  try {
    const table = Tablebase.open(dir);
    useMoveOracle(raceOracle(table));
    useTableProbe(searchProbe(table));
    inUse?.close();
    inUse = table;
  } catch (error) {
    console.error(`bot worker: tablebase ${dir} not used: ${(error as Error).message}`);
  }
}

parentPort?.on('message', (message: WorkerMessage) => {
  if ('tablebase' in message) {
    playFromTablebase(message.tablebase);
    return;
  }
  try {
    const limits = stop ? { stopped: () => Atomics.load(stop, 0) === message.id } : {};
    const reply = botMove(message.request, searcher, limits);
    parentPort?.postMessage({ id: message.id, ok: true, reply });
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
