/**
 * A computer's move worked out on one node while another node moved the room on (the player has
 * a tab on each): the changes reach the first node through Room.feed, with no command of its own.
 * Its search, for a position that is gone, must not be played. The search is held by a pool
 * whose answers the test gives; everything else is the real room, manager and store contract.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { BotMoveRequest, BotPool } from '../src/bots/pool.js';
import { RoomManager } from '../src/rooms/manager.js';
import { storedWith } from '../src/rooms/room.js';
import type { PresenceCounts } from '../src/rooms/state.js';
import { createMemoryStorage } from '../src/storage/memory.js';
import { sleep, waitUntil } from './helpers.js';

/** The searches asked for, each answered when the test says. */
function heldPool() {
  const asked: { request: BotMoveRequest; answer: (move: string) => void }[] = [];
  const pool = {
    move: (request: BotMoveRequest) =>
      new Promise((resolve) => {
        asked.push({ request, answer: (move) => resolve({ move, depth: 1, nodes: 1 }) });
      }),
  } as unknown as BotPool;
  return { pool, asked };
}

const managers: RoomManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

function node(storage: ReturnType<typeof createMemoryStorage>, pool?: BotPool): RoomManager {
  const manager = new RoomManager({
    storage,
    log: pino({ level: 'silent' }),
    broadcast: () => {},
    historySize: 10,
    idleMs: 60_000,
    ...(pool ? { bots: { pool, minDelayMs: 0 } } : {}),
  });
  managers.push(manager);
  return manager;
}

describe("a computer's move for a position another node moved on from", () => {
  it('is not played: the search starts again on the room as it is', async () => {
    const storage = createMemoryStorage();
    const { pool, asked } = heldPool();
    const a = node(storage, pool);
    const { room } = await a.create({ variant: 'bagh-chal', options: {}, side: 'goat', bot: 'casual' });
    const roomId = room.id;
    const goatHash = room.state.seats.goat.tokenHash ?? '';
    await a.dispatch(roomId, { type: 'join', socketId: 'tab-a', tokenHash: goatHash });
    expect(await a.dispatch(roomId, { type: 'move', socketId: 'tab-a', move: 'G@c3', ply: 0 })).toMatchObject(
      {
        ok: true,
      },
    );
    await waitUntil(() => asked.length === 1);
    expect(asked[0]!.request.moves).toEqual(['G@c3']);

    // Node B (the player's other tab) played the computer's move and the player's reply.
    const b = node(storage);
    await b.dispatch(roomId, { type: 'join', socketId: 'tab-b', tokenHash: goatHash });
    const from = room.version;
    const before = (await storage.loadRoom(roomId))!.version;
    await b.dispatch(roomId, { type: 'bot-move', version: before, move: 'a1-b1' });
    expect(await b.dispatch(roomId, { type: 'move', socketId: 'tab-b', move: 'G@c2', ply: 2 })).toMatchObject(
      {
        ok: true,
      },
    );
    const since = (await storage.changesSince!(roomId, from))!;
    a.feed({ roomId, from, version: since.version, changes: since.changes });
    await waitUntil(() => room.version === since.version);

    // A's search answers now, for the position after G@c3: a5-b5 is legal after G@c2 too.
    asked[0]!.answer('a5-b5');
    await waitUntil(() => asked.length === 2);
    expect(asked[1]!.request.moves).toEqual(['G@c3', 'a1-b1', 'G@c2']);
    await sleep(50);
    expect(room.state.moveTexts).toEqual(['G@c3', 'a1-b1', 'G@c2']);
    asked[1]!.answer('e1-d1');
    await waitUntil(() => room.state.moveTexts.length === 4);
    expect((await storage.loadRoom(roomId))!.version).toBe(room.version);
  });
});

describe('the computer of a room held by two nodes', () => {
  it("is searched only on the node holding its player's socket, not on one holding a spectator's", async () => {
    const memory = createMemoryStorage();
    // A store shared by nodes tells the version it holds (PostgreSQL's does).
    const storage = {
      ...memory,
      currentVersion: async (roomId: string) => (await memory.changesSince?.(roomId, 0))?.version ?? null,
    };
    const pools = { a: heldPool(), b: heldPool() };
    const nodes: Record<'a' | 'b', RoomManager> = {} as Record<'a' | 'b', RoomManager>;
    // Two nodes as the Redis adapter joins them: each hears the other's stored changes (feed),
    // and counts the other's sockets (the player on A, the spectator on B).
    const shared = (name: 'a' | 'b', other: 'a' | 'b', remote: PresenceCounts) => {
      const manager = new RoomManager({
        storage,
        log: pino({ level: 'silent' }),
        broadcast: (event) => {
          const stored = storedWith.get(event);
          if (stored) nodes[other].feed(stored);
        },
        historySize: 10,
        idleMs: 60_000,
        countRemote: async () => remote,
        bots: { pool: pools[name].pool, minDelayMs: 0 },
      });
      managers.push(manager);
      nodes[name] = manager;
    };
    shared('a', 'b', { tiger: 0, goat: 0, spectators: 1 });
    shared('b', 'a', { tiger: 0, goat: 1, spectators: 0 });
    const { room } = await nodes.a.create({ variant: 'bagh-chal', options: {}, side: 'goat', bot: 'casual' });
    const goatHash = room.state.seats.goat.tokenHash ?? '';
    await nodes.a.dispatch(room.id, { type: 'join', socketId: 'player', tokenHash: goatHash });
    await nodes.b.dispatch(room.id, { type: 'join', socketId: 'watcher' });
    expect(
      await nodes.a.dispatch(room.id, { type: 'move', socketId: 'player', move: 'G@c3', ply: 0 }),
    ).toMatchObject({
      ok: true,
    });
    await waitUntil(() => pools.a.asked.length === 1);
    const onB = await nodes.b.get(room.id);
    await waitUntil(() => onB?.state.moveTexts.length === 1);
    await sleep(100);
    expect(pools.b.asked).toHaveLength(0);
  });
});
