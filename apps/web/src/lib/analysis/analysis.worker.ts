/**
 * The analysis Web Worker: runs `@bagh/engine` off the page's thread. Each message
 * `{ id, request }` (an AnalysisRequest) is answered `{ id, ok: true, reply }` or
 * `{ id, ok: false, error }`. `handleAnalysisMessage` is the whole worker; tests call it directly.
 */
import { type AnalysisReply, type AnalysisRequest, analyse, Searcher } from '@bagh/engine';

export interface AnalysisMessage {
  readonly id: number;
  readonly request: AnalysisRequest;
}

export type AnalysisAnswer =
  | { readonly id: number; readonly ok: true; readonly reply: AnalysisReply }
  | { readonly id: number; readonly ok: false; readonly error: string };

/** One searcher for the worker's life: its transposition table helps the next position. */
const searcher = new Searcher();

export function handleAnalysisMessage(message: AnalysisMessage): AnalysisAnswer {
  try {
    return { id: message.id, ok: true, reply: analyse(message.request, searcher) };
  } catch (error) {
    return { id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

// Inside a real worker only (not when a test imports this module).
if (typeof self !== 'undefined' && 'WorkerGlobalScope' in self) {
  self.onmessage = (event: MessageEvent<AnalysisMessage>) => {
    self.postMessage(handleAnalysisMessage(event.data));
  };
}
