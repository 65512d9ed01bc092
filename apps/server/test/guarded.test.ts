import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { guardStorage, StoreUnavailableError } from '../src/storage/guarded.js';
import { createMemoryStorage } from '../src/storage/memory.js';

const log = pino({ level: 'silent' });

/** A store whose check answers only when `answer` is called. */
function heldStore() {
  const store = createMemoryStorage();
  let answer = () => {};
  store.check = () =>
    new Promise<void>((resolve) => {
      answer = resolve;
    });
  return { store, answer: () => answer() };
}

describe('guarded store: call timeouts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a call slower than timeoutMs fails; with timeoutMs false it takes no timer and waits', async () => {
    vi.useFakeTimers();
    const timed = heldStore();
    const guarded = guardStorage(timed.store, { log, timeoutMs: 1000 });
    const late = guarded.check().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1001);
    expect(await late).toBeInstanceOf(StoreUnavailableError);
    await guarded.close();

    const held = heldStore();
    const untimed = guardStorage(held.store, { log, timeoutMs: false });
    const waiting = untimed.check();
    // No timeout armed: five times the default passes and the call still waits for its store.
    await vi.advanceTimersByTimeAsync(5000);
    held.answer();
    await expect(waiting).resolves.toBeUndefined();
    await untimed.close();
  });
});
