/** HTTP calls (same origin). Types only from @bagh/protocol: zod stays out of the bundle. */

import type {
  CreateRoomBody,
  CreateRoomReply,
  ErrorInfo,
  GamesQuery,
  GamesReply,
  ImportRecordReply,
  LiveReply,
} from '@bagh/protocol';
import { m } from '../../paraglide/messages.js';

/** The server's refusal, or OFFLINE: no answer from it (down, or the network), said as unreachable. */
export type ApiError = ErrorInfo | { code: 'OFFLINE'; message: string };
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

const unreachable = (): ApiError => ({ code: 'OFFLINE', message: m.net_unreachable() });
/** What a proxy answers, with no body of the server's, when the server behind it is down. */
const GATEWAY_DOWN = new Set([502, 503, 504]);

async function call<T extends object>(path: string, body?: object): Promise<ApiResult<T>> {
  try {
    const res = await fetch(
      path,
      body === undefined
        ? {}
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    const data = (await res.json().catch(() => null)) as T | { error?: ErrorInfo } | null;
    if (res.ok && data && !('error' in data)) return { ok: true, value: data as T };
    const error = data && 'error' in data && data.error ? data.error : undefined;
    if (error) return { ok: false, error };
    if (GATEWAY_DOWN.has(res.status)) return { ok: false, error: unreachable() };
    return { ok: false, error: { code: 'INTERNAL', message: `HTTP ${res.status}` } };
  } catch {
    // fetch failed: no server answered (it is down, or the network is).
    return { ok: false, error: unreachable() };
  }
}

export const createRoom = (body: CreateRoomBody): Promise<ApiResult<CreateRoomReply>> =>
  call<CreateRoomReply>('/api/rooms', body);

/** Opens a RULES.md game record as a finished room. */
export const importRecord = (record: string): Promise<ApiResult<ImportRecordReply>> =>
  call<ImportRecordReply>('/api/records', { record });

export const fetchLive = (): Promise<ApiResult<LiveReply>> => call<LiveReply>('/api/live');

/** A page of finished games, newest first; `before`: the previous page's `next`. */
export function fetchGames(query: GamesQuery = {}): Promise<ApiResult<GamesReply>> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return call<GamesReply>(search ? `/api/games?${search}` : '/api/games');
}
