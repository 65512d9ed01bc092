/** The rematch as a command of the RoomManager, judged in the old room's turn. */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Admission } from '../src/limits/rooms.js';
import { RoomManager } from '../src/rooms/manager.js';
import { hashSeatToken } from '../src/rooms/tokens.js';
import { createMemoryStorage } from '../src/storage/memory.js';
import type { RoomStorage } from '../src/storage/types.js';

const TIGER_HASH = hashSeatToken('tiger-token-tiger-token-tiger-tok');

let manager: RoomManager | undefined;
afterEach(() => manager?.close());

/** A finished game, goat (socket g) resigned to tiger (socket t); counts the rooms created. */
async function finished(opts: { bot?: boolean } = {}) {
  const memory = createMemoryStorage();
  const created: string[] = [];
  const storage: RoomStorage = {
    ...memory,
    createRoom: (record) => {
      created.push(record.roomId);
      return memory.createRoom(record);
    },
  };
  manager = new RoomManager({
    storage,
    log: pino({ level: 'silent' }),
    broadcast: () => {},
    historySize: 10,
    idleMs: 60_000,
  });
  const { room } = await manager.create({
    variant: 'bagh-chal',
    options: {},
    side: 'goat',
    ...(opts.bot ? { bot: 'casual' as const } : {}),
  });
  const roomId = room.id;
  const goatHash = room.state.seats.goat.tokenHash ?? '';
  await manager.dispatch(roomId, { type: 'join', socketId: 'g', tokenHash: goatHash });
  if (!opts.bot)
    await manager.dispatch(roomId, { type: 'claim', socketId: 't', side: 'tiger', tokenHash: TIGER_HASH });
  await manager.dispatch(roomId, { type: 'resign', socketId: 'g' });
  created.length = 0;
  const admitted: boolean[] = [];
  const admit = async (againstBot: boolean): Promise<Admission> => {
    admitted.push(againstBot);
    return { ok: true, created: () => {}, cancel: () => {} };
  };
  return { manager, roomId, created, admitted, admit, goatHash };
}

describe('RoomManager.rematch', () => {
  it('a refused accept asks no admission and creates no room', async () => {
    const { manager, roomId, created, admitted, admit } = await finished();
    const refused = await manager.rematch(roomId, { socketId: 't', accept: true, admit });
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_ALLOWED' } });
    expect(created).toEqual([]);
    expect(admitted).toEqual([]);
  });

  it('an offer, then an accept: the new room, and each player told their swapped seat', async () => {
    const { manager, roomId, created, admitted, admit } = await finished();
    const offered = await manager.rematch(roomId, { socketId: 'g', accept: false, admit });
    expect(offered).toEqual({ ok: true, value: { version: expect.any(Number) } });
    const accepted = await manager.rematch(roomId, { socketId: 't', accept: true, admit });
    if (!accepted.ok) throw new Error(accepted.error.message);
    const started = accepted.value.started;
    expect(created).toEqual([started?.roomId]);
    expect(admitted).toEqual([false]);
    expect(started?.seats.map(({ sockets, seat }) => [sockets, seat.side])).toEqual([
      [['t'], 'goat'],
      [['g'], 'tiger'],
    ]);
    const old = await manager.get(roomId);
    expect(old?.snapshot().rematch).toEqual({ offeredBy: 'goat', roomId: started?.roomId });
  });

  it("a player who missed seat:assigned takes their new seat with the old room's token", async () => {
    const { manager, roomId, admit, goatHash } = await finished();
    await manager.rematch(roomId, { socketId: 'g', accept: false, admit });
    const accepted = await manager.rematch(roomId, { socketId: 't', accept: true, admit });
    if (!accepted.ok || !accepted.value.started) throw new Error('no rematch');
    const newRoom = accepted.value.started.roomId;
    // The old goat plays tiger now, the old tiger goat; a token of neither holds no seat.
    const asOldGoat = await manager.dispatch(newRoom, { type: 'join', socketId: 'g2', tokenHash: goatHash });
    expect(asOldGoat.ok).toBe(true);
    const asOldTiger = await manager.dispatch(newRoom, {
      type: 'join',
      socketId: 't2',
      tokenHash: TIGER_HASH,
    });
    expect(asOldTiger.ok).toBe(true);
    const state = (await manager.get(newRoom))?.state;
    expect(state?.seats.tiger.sockets).toEqual(['g2']);
    expect(state?.seats.goat.sockets).toEqual(['t2']);
    const stranger = await manager.dispatch(newRoom, {
      type: 'join',
      socketId: 'x',
      tokenHash: hashSeatToken('someone-else-someone-else-someone'),
    });
    expect(stranger).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });

    // A rematch of the rematch, both players again on their first room's tokens: still seated.
    await manager.dispatch(newRoom, { type: 'resign', socketId: 'g2' });
    await manager.rematch(newRoom, { socketId: 'g2', accept: false, admit });
    const again = await manager.rematch(newRoom, { socketId: 't2', accept: true, admit });
    if (!again.ok || !again.value.started) throw new Error('no second rematch');
    const third = again.value.started.roomId;
    expect(
      await manager.dispatch(third, { type: 'join', socketId: 'g3', tokenHash: goatHash }),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await manager.dispatch(third, { type: 'join', socketId: 't3', tokenHash: TIGER_HASH }),
    ).toMatchObject({
      ok: true,
    });
    const seats = (await manager.get(third))?.state.seats;
    expect([seats?.goat.sockets, seats?.tiger.sockets]).toEqual([['g3'], ['t3']]);
  });

  it('a refused admission is RATE_LIMITED and creates no room', async () => {
    const { manager, roomId, created } = await finished({ bot: true });
    const admit = async (): Promise<Admission> => ({ ok: false, message: 'slow down' });
    const refused = await manager.rematch(roomId, { socketId: 'g', accept: false, admit });
    expect(refused).toEqual({ ok: false, error: { code: 'RATE_LIMITED', message: 'slow down' } });
    expect(created).toEqual([]);
  });

  it('against the computer an offer starts the rematch at once', async () => {
    const { manager, roomId, admitted, admit } = await finished({ bot: true });
    const started = await manager.rematch(roomId, { socketId: 'g', accept: false, admit });
    if (!started.ok) throw new Error(started.error.message);
    expect(admitted).toEqual([true]);
    expect(started.value.started?.seats.map(({ seat }) => seat.side)).toEqual(['tiger']);
  });
});
