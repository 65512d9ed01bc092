/**
 * Games played through faults, on two nodes (a real PostgreSQL and a real redis-server) and on one
 * node on SQLite: six rooms of scripted pages (two players and a spectator each, spread over the
 * nodes) play random legal games while a node is killed or stopped and started again, Redis
 * restarts empty and PostgreSQL freezes, one fault after another. A page does what the web client
 * does: it resends an unanswered move at its ply, re-joins with `since` after any loss, and
 * reconnects to whichever node is up (nginx's part). Afterwards every acked move is stored at its
 * ply, the nodes serve the same rooms, every page shows the stored game, every game goes on, and
 * once ended each is in the archive.
 */
import { join } from 'node:path';
import { seededRandom } from '@bagh/engine';
import type { RoomEvent, Snapshot } from '@bagh/protocol';
import { createGame, legalMoves, makeMove, playMoveTexts, type Side } from '@bagh/rules';
import { io, type Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/local-server.js';
import { createRoom, getSnapshot, perTest, removeDir, sleep, tempDir, waitUntil } from './helpers.js';
import { type NodeProcess, startNode, startRedis, useShared } from './multinode-helpers.js';

const fixture = perTest();
const shared = useShared();

/** Starts a node on `port` (default: a free one). */
type StartNode = (port?: string) => Promise<NodeProcess>;

/** The nodes, each on a port of its own that it keeps across restarts. */
class Cluster {
  readonly nodes: (NodeProcess | null)[];
  readonly urls: string[];

  private constructor(
    nodes: NodeProcess[],
    readonly startNode: StartNode,
  ) {
    this.nodes = nodes;
    this.urls = nodes.map((node) => node.url);
  }

  static async start(count: number, startNode: StartNode): Promise<Cluster> {
    const nodes = await Promise.all(Array.from({ length: count }, () => startNode()));
    for (const node of nodes) fixture.defer(() => node.stop());
    return new Cluster(nodes, startNode);
  }

  /** The URLs of the nodes up now, `preferred` first when it is up (nginx's hash, then its fallback). */
  liveUrls(preferred: number): string[] {
    const up = this.urls.filter((_, i) => this.nodes[i] !== null);
    const first = this.urls[preferred % this.urls.length]!;
    return up.includes(first) ? [first, ...up.filter((url) => url !== first)] : up;
  }

  /** Stops node i with `signal`, and starts it again on its port `downMs` later. */
  async restart(i: number, signal: 'SIGTERM' | 'SIGKILL', downMs: number): Promise<void> {
    const node = this.nodes[i];
    this.nodes[i] = null;
    await node?.stop(signal);
    await sleep(downMs);
    const started = await this.startNode(new URL(this.urls[i]!).port);
    this.nodes[i] = started;
    fixture.defer(() => started.stop());
  }
}

type Role = Side | 'spectator';

/** A scripted page of one room: it keeps the newest snapshot it was shown and re-joins after any loss. */
class Page {
  snapshot: Snapshot | null = null;
  socket: Socket | null = null;
  joined = false;
  /** The page's own log of what went wrong, for the failure message. */
  readonly trouble: string[] = [];

  constructor(
    readonly cluster: Cluster,
    readonly roomId: string,
    readonly role: Role,
    readonly preferred: number,
    readonly seatToken?: string,
  ) {}

  /** Connected and joined, trying each node up until one answers; false when none did. */
  async ensureJoined(): Promise<boolean> {
    if (this.socket?.connected && this.joined) return true;
    for (const url of this.cluster.liveUrls(this.preferred)) {
      if (!this.socket?.connected) {
        this.socket?.disconnect();
        this.socket = await this.#connect(url);
        if (!this.socket) continue;
      }
      if (await this.#join()) return true;
      this.socket?.disconnect();
      this.socket = null;
    }
    return false;
  }

  async #connect(url: string): Promise<Socket | null> {
    const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false, timeout: 2000 });
    const up = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('connect_error', () => resolve(false));
    });
    if (!up) {
      socket.disconnect();
      return null;
    }
    this.joined = false;
    socket.on('room:event', (event: RoomEvent) => {
      if (event.roomId !== this.roomId || event.version <= (this.snapshot?.version ?? -1)) return;
      // A gap is closed by a re-join with `since`, as the web client does.
      if (this.snapshot && event.version > this.snapshot.version + 1) this.joined = false;
      else this.snapshot = event.snapshot;
    });
    socket.on('disconnect', () => {
      this.joined = false;
    });
    fixture.defer(() => {
      socket.disconnect();
    });
    return socket;
  }

  async #join(): Promise<boolean> {
    const socket = this.socket;
    if (!socket) return false;
    try {
      const reply = await socket.timeout(3000).emitWithAck('room:join', {
        roomId: this.roomId,
        ...(this.seatToken ? { seatToken: this.seatToken } : {}),
        ...(this.snapshot ? { since: this.snapshot.version } : {}),
      });
      if (!reply.ok) {
        this.trouble.push(`join: ${reply.error.code}`);
        return false;
      }
      if (reply.snapshot.version >= (this.snapshot?.version ?? -1)) this.snapshot = reply.snapshot;
      this.joined = socket.connected;
      return this.joined;
    } catch {
      this.trouble.push('join: no answer');
      return false;
    }
  }

  close(): void {
    this.socket?.disconnect();
  }
}

interface Acked {
  readonly ply: number;
  readonly move: string;
  readonly version: number;
}

/** A player: on its turn it picks a random legal move and sends it until it is stored or refused for good. */
class Player {
  readonly acked: Acked[] = [];
  /** Moves answered with an error or not at all, then found stored all the same. */
  storedAfterAll = 0;
  #pending: { ply: number; move: string } | null = null;

  constructor(
    readonly page: Page,
    readonly side: Side,
    readonly next: () => number,
  ) {}

  /** Plays while `playing()` holds. */
  async run(playing: () => boolean): Promise<void> {
    while (playing()) {
      if (!(await this.page.ensureJoined())) {
        await sleep(200);
        continue;
      }
      const snapshot = this.page.snapshot!;
      if (snapshot.result) return;
      const pending = this.#pending;
      if (pending && snapshot.moves.length > pending.ply) {
        // Stored after all (the answer was lost), or the page's snapshot lags: either way it is decided.
        if (snapshot.moves[pending.ply] === pending.move) this.storedAfterAll++;
        else
          this.page.trouble.push(
            `ply ${pending.ply}: ${pending.move} sent, ${snapshot.moves[pending.ply]} stored`,
          );
        this.#pending = null;
        continue;
      }
      if (snapshot.toMove !== this.side) {
        await sleep(50);
        continue;
      }
      this.#pending ??= { ply: snapshot.moves.length, move: this.#choose(snapshot) };
      await sleep(600 + this.next() * 600); // thinking: the games last through the faults
      await this.#send(this.#pending);
    }
  }

  #choose(snapshot: Snapshot): string {
    const game = createGame(snapshot.variant, snapshot.options);
    if (!game.ok) throw new Error(game.error.message);
    const played = playMoveTexts(game.value, snapshot.moves);
    if (!played.ok) throw new Error(played.error.message);
    // The tigers take no goat while they can help it: the games last through the faults.
    const legal = legalMoves(played.value).map(makeMove);
    const quiet = legal.filter((move) => !move.includes('x'));
    const moves = quiet.length > 0 ? quiet : legal;
    return moves[Math.floor(this.next() * moves.length)]!;
  }

  async #send(pending: { ply: number; move: string }): Promise<void> {
    const socket = this.page.socket;
    if (!socket?.connected) return;
    try {
      const ack = await socket
        .timeout(3000)
        .emitWithAck('move', { roomId: this.page.roomId, move: pending.move, ply: pending.ply });
      if (ack.ok) {
        this.acked.push({ ...pending, version: ack.version });
        this.#pending = null;
        return;
      }
      this.page.trouble.push(`move ${pending.ply}: ${ack.error.code}`);
      // STALE: the page is behind, and its re-join tells whether this move was stored.
      if (ack.error.code === 'STALE') this.page.joined = false;
      else if (ack.error.code !== 'UNAVAILABLE') this.#pending = null;
    } catch {
      this.page.trouble.push(`move ${pending.ply}: no answer`);
    }
    await sleep(200);
  }
}

/** Claims the tiger's seat from a socket of its own on `url`, which leaves: the page joins with the token. */
async function claimTiger(url: string, roomId: string): Promise<{ ok: true; seatToken: string }> {
  const socket = io(url, { transports: ['websocket'], forceNew: true });
  try {
    const claimed = await socket.timeout(5000).emitWithAck('seat:claim', { roomId, side: 'tiger' });
    expect(claimed).toMatchObject({ ok: true });
    return claimed;
  } finally {
    socket.disconnect();
  }
}

/**
 * Six rooms play through `faults`, one after another (`inflict` makes each and ends it: the part
 * restarted or thawed), then everything is checked; see the top of the file.
 */
async function playThroughFaults(
  cluster: Cluster,
  faults: readonly string[],
  inflict: (fault: string, next: () => number) => Promise<void>,
): Promise<void> {
  const next = seededRandom(20261202);
  const rooms = await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      const created = await createRoom(cluster.urls[i % cluster.urls.length]!, {
        variant: 'bagh-chal',
        side: 'goat',
      });
      const { roomId } = created;
      const goat = new Page(cluster, roomId, 'goat', i, created.seatToken);
      expect(await goat.ensureJoined()).toBe(true);
      const claimed = await claimTiger(cluster.urls[(i + 1) % cluster.urls.length]!, roomId);
      const tiger = new Page(cluster, roomId, 'tiger', i + 1, claimed.seatToken);
      const watcher = new Page(cluster, roomId, 'spectator', i);
      expect(await tiger.ensureJoined()).toBe(true);
      expect(await watcher.ensureJoined()).toBe(true);
      return {
        roomId,
        pages: [goat, tiger, watcher],
        players: [
          new Player(goat, 'goat', seededRandom(i * 2 + 1)),
          new Player(tiger, 'tiger', seededRandom(i * 2 + 2)),
        ],
      };
    }),
  );

  let faulting = true;
  const playing = rooms.flatMap((room) => room.players.map((player) => player.run(() => faulting)));
  const watching = rooms.map(async (room) => {
    while (faulting) {
      await room.pages[2]!.ensureJoined();
      await sleep(100);
    }
  });

  // One fault after another, each over before the next.
  await sleep(2000);
  for (const fault of faults) {
    await inflict(fault, next);
    await sleep(2500);
  }
  faulting = false;
  await Promise.all([...playing, ...watching]);
  const plies = await Promise.all(
    rooms.map(async (room) => (await getSnapshot(cluster.urls[0]!, room.roomId)).moves.length),
  );
  expect(
    plies.every((n) => n > 4),
    `plies per room during the faults: ${plies}`,
  ).toBe(true);

  // After the faults: every unfinished game goes on, each side moving twice more.
  const goesOn = rooms.map(async (room) => {
    const target = room.players.map((player) => player.acked.length + 2);
    const deadline = Date.now() + 60_000;
    await Promise.all(
      room.players.map((player, p) =>
        player.run(
          () => Date.now() < deadline && player.acked.length < target[p]! && !room.pages[0]!.snapshot?.result,
        ),
      ),
    );
    return room.pages[0]!.snapshot?.result
      ? 'finished'
      : room.players.every((player, p) => player.acked.length >= target[p]!);
  });
  const went = await Promise.all(goesOn);
  const story = () =>
    rooms
      .map(
        (room) =>
          `${room.roomId}: ${room.pages.map((page) => `${page.role} [${page.trouble.slice(-8).join(', ')}]`).join('; ')}`,
      )
      .join('\n');
  expect(
    went.every((w) => w === 'finished' || w === true),
    `${went}\n${story()}`,
  ).toBe(true);

  // Every page is here again (one whose node stopped after its game ended re-joins now).
  for (const room of rooms) for (const page of room.pages) expect(await page.ensureJoined()).toBe(true);
  for (const room of rooms) {
    // Both nodes serve the same room, and show both players here once presence has settled.
    let seen: Snapshot[] = [];
    const settled = async (): Promise<boolean> => {
      seen = await Promise.all(cluster.urls.map((url) => getSnapshot(url, room.roomId)));
      return seen.every(
        (s) => s.version === seen[0]!.version && s.seats.goat.connected && s.seats.tiger.connected,
      );
    };
    const deadline = Date.now() + 10_000;
    while (!(await settled()) && Date.now() < deadline) await sleep(200);
    const shown = seen.map((s) => ({ version: s.version, moves: s.moves.length, seats: s.seats }));
    expect(await settled(), `${room.roomId}: ${JSON.stringify(shown)}\n${story()}`).toBe(true);
    const stored = seen[0]!;
    for (const other of seen) expect(other.moves).toEqual(stored.moves);
    // Every acked move is stored at its ply, at or below the version its ack gave.
    for (const player of room.players)
      for (const acked of player.acked) {
        expect(stored.moves[acked.ply], `${room.roomId} ply ${acked.ply}`).toBe(acked.move);
        expect(acked.version).toBeLessThanOrEqual(stored.version);
      }
    // Every page, spectator included, shows the stored game.
    for (const page of room.pages) {
      await waitUntil(() => page.snapshot?.version === stored.version, 10_000).catch(() => undefined);
      expect(page.snapshot?.moves, `${room.roomId} ${page.role}\n${story()}`).toEqual(stored.moves);
    }
  }
  // The games end (the goats resign those still in play), and each is in the archive on both nodes.
  const finalPlies = new Map<string, number>();
  for (const room of rooms) {
    const goat = room.pages[0]!;
    if (!goat.snapshot?.result) {
      const resigned = await goat.socket!.timeout(5000).emitWithAck('resign', { roomId: room.roomId });
      expect(resigned).toMatchObject({ ok: true });
    }
    finalPlies.set(room.roomId, (await getSnapshot(cluster.urls[0]!, room.roomId)).moves.length);
  }
  for (const url of cluster.urls) {
    const listed = (await (await fetch(`${url}/api/games?limit=100`)).json()) as {
      games: { roomId: string; moves: number }[];
    };
    const archived = new Map(listed.games.map((game) => [game.roomId, game.moves]));
    for (const [roomId, plies] of finalPlies) expect(archived.get(roomId), `${url} ${roomId}`).toBe(plies);
  }
  for (const room of rooms) for (const page of room.pages) page.close();
}

describe('through faults', () => {
  it('two nodes: every acked move and every player kept; nodes killed and restarted, Redis emptied, PostgreSQL frozen', {
    timeout: 240_000,
  }, async () => {
    const on = shared();
    const cluster = await Cluster.start(2, (port) => startNode(on, port ? { PORT: port } : {}));
    let redis = on.redis;
    const faults = ['kill', 'redis', 'freeze', 'term', 'kill', 'freeze', 'redis', 'term'];
    await playThroughFaults(cluster, faults, async (fault, next) => {
      const i = Math.floor(next() * 2);
      if (fault === 'kill' || fault === 'term') {
        await cluster.restart(i, fault === 'kill' ? 'SIGKILL' : 'SIGTERM', 1500);
      } else if (fault === 'redis') {
        const port = redis.port;
        await redis.stop();
        await sleep(1500);
        redis = await startRedis({ port }); // empty: it kept nothing
        fixture.defer(() => redis.stop());
      } else {
        on.postgres.freeze(true);
        await sleep(1500);
        on.postgres.freeze(false);
      }
    });
  });

  it('one node on SQLite: every acked move and every player kept; the node killed and stopped, started again', {
    timeout: 240_000,
  }, async () => {
    const dataDir = tempDir('bagh-chaos-');
    fixture.defer(() => removeDir(dataDir));
    const cluster = await Cluster.start(1, async (port) => {
      const started = await startServerProcess({
        DATA_DIR: dataDir,
        WEB_DIST: join(dataDir, 'no-web-dist'),
        ...(port ? { PORT: port } : {}),
      });
      return { ...started, kill: () => started.stop('SIGKILL') };
    });
    await playThroughFaults(cluster, ['kill', 'term', 'kill', 'term'], (fault) =>
      cluster.restart(0, fault === 'kill' ? 'SIGKILL' : 'SIGTERM', 1500),
    );
  });
});
