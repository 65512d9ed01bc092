/**
 * The engine's Web Worker: runs `@bagh/engine` off the page's thread, for post-game analysis and
 * for the computer's moves in offline play. Each message `{ id, kind, request }` is answered
 * `{ id, ok: true, reply }` or `{ id, ok: false, error }`. `handleEngineMessage` is the whole
 * worker; tests call it directly.
 */
import {
  type AnalysisReply,
  type AnalysisRequest,
  analyse,
  type BotMoveReply,
  type BotMoveRequest,
  botMove,
  Searcher,
} from '@bagh/engine';

/** What the worker is asked, by kind; `EngineReplies` says what each kind answers. */
export type EngineTask =
  | { readonly kind: 'analyse'; readonly request: AnalysisRequest }
  | { readonly kind: 'move'; readonly request: BotMoveRequest };

export interface EngineReplies {
  readonly analyse: AnalysisReply;
  readonly move: BotMoveReply;
}

export type EngineMessage = EngineTask & { readonly id: number };

export type EngineAnswer =
  | { readonly id: number; readonly ok: true; readonly reply: EngineReplies[EngineTask['kind']] }
  | { readonly id: number; readonly ok: false; readonly error: string };

/** One searcher for the worker's life: its transposition table helps the next position. */
const searcher = new Searcher();

export function handleEngineMessage(message: EngineMessage): EngineAnswer {
  try {
    const reply =
      message.kind === 'move' ? botMove(message.request, searcher) : analyse(message.request, searcher);
    return { id: message.id, ok: true, reply };
  } catch (error) {
    return { id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

// Inside a real worker only (not when a test imports this module).
if (typeof self !== 'undefined' && 'WorkerGlobalScope' in self) {
  self.onmessage = (event: MessageEvent<EngineMessage>) => {
    self.postMessage(handleEngineMessage(event.data));
  };
}
