import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { guardStorage, StoreUnavailableError } from '../src/storage/guarded.js';
import { createMemoryStorage } from '../src/storage/memory.js';

const log = pino({ level: 'silent' });

/** A store whose checks each wait until answered, in any order. */
function queuedStore() {
  const store = createMemoryStorage();
  const waiting: (() => void)[] = [];
  store.check = () => new Promise<void>((resolve) => waiting.push(resolve));
  return { store, answer: (i: number) => waiting[i]!(), calls: () => waiting.length };
}

describe('guarded store: call timeouts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a call slower than timeoutMs fails; with timeoutMs false it takes no timer and waits', async () => {
    vi.useFakeTimers();
    const timed = queuedStore();
    const guarded = guardStorage(timed.store, { log, timeoutMs: 1000 });
    const late = guarded.check().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1001);
    expect(await late).toBeInstanceOf(StoreUnavailableError);
    await guarded.close();

    const held = queuedStore();
    const untimed = guardStorage(held.store, { log, timeoutMs: false });
    const waiting = untimed.check();
    // No timeout armed: five times the default passes and the call still waits for its store.
    await vi.advanceTimersByTimeAsync(5000);
    held.answer(0);
    await expect(waiting).resolves.toBeUndefined();
    await untimed.close();
  });

  it('opens the breaker when the store answered nothing since it began: the next call fails at once', async () => {
    vi.useFakeTimers();
    const held = queuedStore();
    const guarded = guardStorage(held.store, { log, timeoutMs: 1000 });
    // Answered calls first, so that the error rate alone (1 failure in 6) would not open it.
    for (let i = 0; i < 5; i++) {
      const answeredCall = guarded.check();
      held.answer(i);
      await answeredCall;
    }
    await vi.advanceTimersByTimeAsync(10);
    const first = guarded.check().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1001);
    expect(await first).toBeInstanceOf(StoreUnavailableError);
    // Not even tried: the store is not asked, the caller is answered without waiting.
    const next = guarded.check().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(await next).toBeInstanceOf(StoreUnavailableError);
    expect(held.calls()).toBe(6);
    await guarded.close();
  });

  it('leaves it closed when the store answered other calls meanwhile: slow is not down', async () => {
    vi.useFakeTimers();
    const held = queuedStore();
    const guarded = guardStorage(held.store, { log, timeoutMs: 1000 });
    // Busy traffic: calls answered in time around one that is not.
    const answeredInTime = [guarded.check(), guarded.check()];
    const slow = guarded.check().catch((error: unknown) => error);
    for (let i = 3; i < 12; i++) answeredInTime.push(guarded.check());
    await vi.advanceTimersByTimeAsync(500);
    for (const i of [0, 1, ...Array.from({ length: 9 }, (_, k) => k + 3)]) held.answer(i);
    await Promise.all(answeredInTime);
    await vi.advanceTimersByTimeAsync(501);
    expect(await slow).toBeInstanceOf(StoreUnavailableError);
    // The next call is tried and answered.
    const next = guarded.check();
    await vi.advanceTimersByTimeAsync(0);
    expect(held.calls()).toBe(13);
    held.answer(12);
    await expect(next).resolves.toBeUndefined();
    expect(guarded.failure).toBeNull();
    await guarded.close();
  });
});
