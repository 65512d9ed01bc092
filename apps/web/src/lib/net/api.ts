/** HTTP calls (same origin). Types only from @bagh/protocol: zod stays out of the bundle. */
import type { CreateRoomBody, CreateRoomReply, ErrorInfo } from '@bagh/protocol';

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

export async function createRoom(body: CreateRoomBody): Promise<ApiResult<CreateRoomReply>> {
  try {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const data = (await res.json().catch(() => null)) as CreateRoomReply | { error?: ErrorInfo } | null;
    if (res.ok && data && 'roomId' in data) return { ok: true, value: data };
    const error = data && 'error' in data && data.error ? data.error : undefined;
    return { ok: false, error: error ?? { code: 'INTERNAL', message: `HTTP ${res.status}` } };
  } catch {
    return { ok: false, error: { code: 'INTERNAL', message: 'The server cannot be reached.' } };
  }
}
