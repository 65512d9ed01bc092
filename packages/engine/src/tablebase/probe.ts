/**
 * Probing the table: the value of a sliding-phase position, and of every legal move from it.
 * A value is exact for play without history; under R13 the moves offered are the legal ones of
 * the game given (its history forbids some), each valued by the table.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  createGame,
  type Game,
  legalMoves,
  type Move,
  makeMove,
  type Position,
  parsePosition,
  play,
  popcount,
} from '@bagh/rules';
import { MANIFEST_FILE, type Manifest, manifestSchema, SUMS_FILE, tierFile } from './files.js';
import { colexRank, emptyRank, GOAT_COUNT, TIER_COUNT, TIGER_COUNT, TIGER_SETS, TierSpace } from './space.js';

export type TableResult = 'tiger' | 'goat' | 'draw';
export interface TableVerdict {
  readonly result: TableResult;
  /** Plies to the end of the game with best play; absent for a draw. */
  readonly plies?: number;
}
export interface TableMove extends TableVerdict {
  /** Canonical move text (R40); its value counts the move itself. */
  readonly move: string;
}
export interface TableAnswer extends TableVerdict {
  /** Every legal move, best first for the side to move. */
  readonly moves: readonly TableMove[];
}

export type ProbeErrorCode = 'ERR_POSITION' | 'ERR_OUT_OF_TABLE';
export interface ProbeError {
  readonly code: ProbeErrorCode;
  readonly message: string;
}
export type ProbeResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ProbeError };

/** The table is not there, or not whole. */
export class TablebaseMissing extends Error {}

/** Where the values come from: arrays in memory, or the files. */
export interface TierReader {
  value(tier: number, index: number): number;
  /** `count` values from `start`: a view of the array, or one read of the file (into `spare` if given). */
  values(tier: number, start: number, count: number, spare?: Uint16Array): Uint16Array;
  close(): void;
}

class ArrayReader implements TierReader {
  constructor(private readonly tiers: readonly Uint16Array[]) {}
  value(tier: number, index: number): number {
    return this.tiers[tier]![index]!;
  }
  values(tier: number, start: number, count: number): Uint16Array {
    return this.tiers[tier]!.subarray(start, start + count);
  }
  close(): void {}
}

class FileReader implements TierReader {
  private readonly buffer = new Uint8Array(2);
  private closed = false;
  constructor(private readonly fds: readonly number[]) {}
  value(tier: number, index: number): number {
    if (readSync(this.fds[tier]!, this.buffer, 0, 2, index * 2) !== 2)
      throw new Error('tablebase: short read');
    return this.buffer[0]! | (this.buffer[1]! << 8);
  }
  values(tier: number, start: number, count: number, spare?: Uint16Array): Uint16Array {
    const values = spare?.length === count ? spare : new Uint16Array(count);
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    for (let at = 0; at < bytes.length; ) {
      const read = readSync(this.fds[tier]!, bytes, at, bytes.length - at, start * 2 + at);
      if (read === 0) throw new Error('tablebase: short read');
      at += read;
    }
    return values;
  }
  /** Closes the files (once: later calls do nothing). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const fd of this.fds) closeSync(fd);
  }
}

const SPACES = Array.from({ length: TIER_COUNT }, (_, tier) => new TierSpace(tier));

/** Why `position` is not one the table holds (the tigers win at `winCaptures`), or null. */
function outsideTable(position: Position, winCaptures: number): ProbeError | null {
  const out = (message: string): ProbeError => ({ code: 'ERR_OUT_OF_TABLE', message });
  if (position.goatsInHand !== 0) return out('goats are still in hand: the table covers the sliding phase');
  if (popcount(position.tigers) !== TIGER_COUNT) return out('the table has four tigers');
  const captured = position.goatsCaptured;
  if (captured >= winCaptures) return out(`${captured} goats captured: the game is over`);
  let goats = 0;
  for (let p = 0; p < position.goats.length; p++) {
    const height = position.goats[p] ?? 0;
    if (height > 1) return out('a stack of goats: not Bagh Chal');
    if (height === 1 && ((position.tigers >>> p) & 1) === 1) return out('a goat under a tiger');
    goats += height;
  }
  if (goats !== GOAT_COUNT - captured)
    return out(`${goats} goats on the board and ${captured} captured: not 20`);
  return null;
}

/**
 * The game at a position string (RULES.md R41) that the table holds, or why it holds none: read
 * without the table, so a bad position is told as such whether or not a table is built.
 */
export function tableGame(text: string, winCaptures = TIER_COUNT): ProbeResult<Game> {
  const parsed = parsePosition(text.trim());
  if (!parsed.ok) return failure('ERR_POSITION', parsed.error.message);
  const outside = outsideTable(parsed.value, winCaptures);
  if (outside) return { ok: false, error: outside };
  const game = createGame('bagh-chal', {}, parsed.value);
  if (!game.ok) return failure('ERR_POSITION', game.error.message);
  return game;
}

export class Tablebase {
  private constructor(
    private readonly reader: TierReader,
    /** The capture that ends the game: 5 (R14), or fewer for a reduced rule set. */
    readonly winCaptures: number,
    private readonly dir: string | null,
  ) {}

  /** A table in memory: `tiers[c]` for c < winCaptures. */
  static fromArrays(tiers: readonly Uint16Array[], winCaptures = TIER_COUNT): Tablebase {
    if (tiers.length !== winCaptures) throw new RangeError('one array per tier');
    return new Tablebase(new ArrayReader(tiers), winCaptures, null);
  }

  /** The table built in `dir`; throws TablebaseMissing when it is not there or not whole. */
  static open(dir: string): Tablebase {
    const manifestPath = join(dir, MANIFEST_FILE);
    if (!existsSync(manifestPath) || !existsSync(join(dir, SUMS_FILE)))
      throw new TablebaseMissing(`no tablebase in ${dir}: build it with pnpm tablebase`);
    let manifest: Manifest;
    try {
      manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
    } catch (error) {
      throw new TablebaseMissing(`${manifestPath} is not a tablebase manifest: ${(error as Error).message}`);
    }
    const fds: number[] = [];
    for (let tier = 0; tier < manifest.winCaptures; tier++) {
      const path = join(dir, tierFile(tier));
      const size = existsSync(path) ? statSync(path).size : -1;
      if (size !== SPACES[tier]!.positions * 2) {
        for (const fd of fds) closeSync(fd);
        throw new TablebaseMissing(`${path} is missing or not whole: build it with pnpm tablebase`);
      }
      fds.push(openSync(path, 'r'));
    }
    return new Tablebase(new FileReader(fds), manifest.winCaptures, dir);
  }

  /**
   * Checks every tier file against SHA256SUMS (streamed: the event loop stays free); rejects
   * with TablebaseMissing naming the first that differs.
   */
  async verify(): Promise<void> {
    if (this.dir === null) return;
    const sums = new Map<string, string>();
    for (const line of readFileSync(join(this.dir, SUMS_FILE), 'utf8').split('\n')) {
      const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
      if (match) sums.set(match[2]!, match[1]!);
    }
    for (let tier = 0; tier < this.winCaptures; tier++) {
      const name = tierFile(tier);
      const expected = sums.get(name);
      if (!expected) throw new TablebaseMissing(`${SUMS_FILE} has no line for ${name}`);
      const hash = createHash('sha256');
      for await (const chunk of createReadStream(join(this.dir, name), { highWaterMark: 1 << 22 }))
        hash.update(chunk as Buffer);
      if (hash.digest('hex') !== expected)
        throw new TablebaseMissing(`${name} does not match its checksum in ${SUMS_FILE}`);
    }
  }

  close(): void {
    this.reader.close();
  }

  /** Why a position is not in the table, or null when it is. */
  outside(position: Position): ProbeError | null {
    return outsideTable(position, this.winCaptures);
  }

  /** The value of a position in the table (check `outside` first). */
  verdict(position: Position): TableVerdict {
    const tier = position.goatsCaptured;
    const space = SPACES[tier]!;
    let goatMask = 0;
    for (let p = 0; p < position.goats.length; p++) if ((position.goats[p] ?? 0) > 0) goatMask |= 1 << p;
    const empty = ~(position.tigers | goatMask) & ((1 << 25) - 1);
    const goatToMove = position.toMove === 'goat';
    const value = this.reader.value(
      tier,
      space.boardIndex(position.tigers, empty) * 2 + (goatToMove ? 1 : 0),
    );
    if (value === 0) return { result: 'draw' };
    const plies = value - 1;
    const moverWins = plies % 2 === 1;
    return { result: moverWins === goatToMove ? 'goat' : 'tiger', plies };
  }

  /**
   * The stored value (FORMAT.md) of a board with every goat placed: 0 a draw, otherwise 1 + the
   * plies to the end, the side to move winning iff those plies are odd; undefined outside the
   * table (not four tigers, the game over by captures, not 20 goats). For a search's horizon: no
   * objects, no history (R13 is the caller's to judge).
   */
  valueAt(tigers: number, goatMask: number, captured: number, goatToMove: boolean): number | undefined {
    if (captured < 0 || captured >= this.winCaptures || popcount(tigers) !== TIGER_COUNT) return undefined;
    if ((tigers & goatMask) !== 0 || popcount(goatMask) !== GOAT_COUNT - captured) return undefined;
    const empty = ~(tigers | goatMask) & ((1 << 25) - 1);
    return this.reader.value(
      captured,
      SPACES[captured]!.boardIndex(tigers, empty) * 2 + (goatToMove ? 1 : 0),
    );
  }

  /**
   * The stored values of every board of `tier` with the tigers of colex rank `tigerRank`, both
   * sides to move: board `emptyRank` at 2 × emptyRank (+1 goats to move). Contiguous in the file.
   */
  tigerBlock(tier: number, tigerRank: number, spare?: Uint16Array): Uint16Array {
    const space = SPACES[tier]!;
    return this.reader.values(tier, tigerRank * space.emptySets * 2, space.emptySets * 2, spare);
  }

  /** The value of the game's position and of each of its legal moves (R13: under its history). */
  analyse(game: Game): ProbeResult<TableAnswer> {
    if (game.variant !== 'bagh-chal') return failure('ERR_OUT_OF_TABLE', 'the table is for Bagh Chal');
    const outside = this.outside(game.position);
    if (outside) return { ok: false, error: outside };
    const moves: TableMove[] = [];
    for (const move of legalMoves(game)) moves.push({ move: makeMove(move), ...this.afterMove(game, move) });
    const mover = game.position.toMove;
    moves.sort((a, b) => score(b, mover) - score(a, mover));
    return { ok: true, value: { ...this.verdict(game.position), moves } };
  }

  /** The same for a RULES.md R41 position string with no history. */
  analysePosition(text: string): ProbeResult<TableAnswer> {
    const game = tableGame(text, this.winCaptures);
    return game.ok ? this.analyse(game.value) : game;
  }

  /**
   * Every legal move (R13: under the game's history) with the best value: the fastest wins, else
   * the draws, else the slowest losses; empty outside the table or when the game is over.
   */
  bestMoves(game: Game): Move[] {
    if (game.variant !== 'bagh-chal' || game.outcome || this.outside(game.position)) return [];
    let best: Move[] = [];
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const move of legalMoves(game)) {
      const value = score(this.afterMove(game, move), game.position.toMove);
      if (value > bestScore) {
        best = [move];
        bestScore = value;
      } else if (value === bestScore) best.push(move);
    }
    return best;
  }

  /**
   * The legal moves of the fastest win when the table says the side to move wins, else none: what
   * `max` keeps to under R13, where the table's draws (and so its losses' alternatives) are races
   * for unrepeated moves that the search judges better (README, the tablebase match).
   */
  winningMoves(game: Game): Move[] {
    const best = this.bestMoves(game);
    if (best.length === 0) return best;
    const first = this.afterMove(game, best[0]!);
    return first.result === game.position.toMove ? best : [];
  }

  /** The table's best legal move (the fastest win, else a draw, else the slowest loss), or null outside it. */
  bestMove(game: Game): Move | null {
    if (game.variant !== 'bagh-chal' || game.outcome || this.outside(game.position)) return null;
    let best: Move | null = null;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const move of legalMoves(game)) {
      const value = score(this.afterMove(game, move), game.position.toMove);
      if (value > bestScore) {
        best = move;
        bestScore = value;
      }
    }
    return best;
  }

  private afterMove(game: Game, move: Move): TableVerdict {
    const next = play(game, move);
    if (!next.ok) throw new Error(next.error.message);
    const { outcome, position } = next.value;
    if (outcome) return { result: outcome.winner, plies: 1 };
    if (position.goatsCaptured >= this.winCaptures) return { result: 'tiger', plies: 1 };
    const after = this.verdict(position);
    return after.plies === undefined ? after : { result: after.result, plies: after.plies + 1 };
  }
}

/** Higher is better for `mover`: a win, the sooner the better; a draw; a loss, the later the better. */
function score(verdict: TableVerdict, mover: 'tiger' | 'goat'): number {
  if (verdict.result === 'draw') return 0;
  const plies = verdict.plies ?? 0;
  return verdict.result === mover ? 100_000 - plies : -100_000 + plies;
}

function failure<T>(code: ProbeErrorCode, message: string): ProbeResult<T> {
  return { ok: false, error: { code, message } };
}

/** "tiger wins in 9", "goat wins in 12", "draw". */
export const describeVerdict = (verdict: TableVerdict): string =>
  verdict.result === 'draw' ? 'draw' : `${verdict.result} wins in ${verdict.plies}`;

/** `Tablebase.valueAt` as a function, with what it answers. */
export type BoardProbe = (
  tigers: number,
  goatMask: number,
  captured: number,
  goatToMove: boolean,
) => number | undefined;

/**
 * `table.valueAt` behind a direct-mapped cache of 2^bits boards (a file table reads two bytes a
 * probe with a system call; a search asks for the same boards again and again): the probe a Node
 * host hands the search (`useTableProbe(searchProbe(table))`).
 */
export function searchProbe(table: Tablebase, bits = 16): BoardProbe {
  return cachedProbe(
    (tigers, goatMask, captured, goatToMove) => table.valueAt(tigers, goatMask, captured, goatToMove),
    bits,
  );
}

/**
 * `table.valueAt` for a search that stays among a few tiger sets (the race search, race.ts): a
 * goat move keeps the tiger set, so once a tiger set has missed the board cache `hot` times the
 * probe reads all of its boards at once (`tigerBlock`: 84 B to 81 kB by tier) and keeps up to
 * `budget` bytes of such blocks, the least recently used dropped first; a tiger set met seldom
 * (the proof-number search's long lines) is read a board at a time. A race search of 60k nodes
 * probes ~100k boards but only ~300–2,700 tiger sets.
 */
export function blockProbe(table: Tablebase, budget = 32 << 20, bits = 16, hot = 32): BoardProbe {
  const blocks = new Map<number, Uint16Array>();
  const misses = new Map<number, number>();
  let bytes = 0;
  return cachedProbe((tigers, goatMask, captured, goatToMove) => {
    if (captured < 0 || captured >= table.winCaptures || popcount(tigers) !== TIGER_COUNT) return undefined;
    if ((tigers & goatMask) !== 0 || popcount(goatMask) !== GOAT_COUNT - captured) return undefined;
    const tigerRank = colexRank(tigers);
    const key = captured * TIGER_SETS + tigerRank;
    let block = blocks.get(key);
    if (block === undefined) {
      const count = (misses.get(key) ?? 0) + 1;
      if (count < hot) {
        if (misses.size >= 1 << 16) misses.clear();
        misses.set(key, count);
        return table.valueAt(tigers, goatMask, captured, goatToMove);
      }
      misses.delete(key);
      const needed = SPACES[captured]!.emptySets * 4;
      // The least recently used go first; one of the same tier lends its buffer (no garbage).
      let spare: Uint16Array | undefined;
      for (const [old, dropped] of blocks) {
        if (bytes + needed <= budget) break;
        blocks.delete(old);
        bytes -= dropped.byteLength;
        if (dropped.byteLength === needed) spare = dropped;
      }
      block = table.tigerBlock(captured, tigerRank, spare);
      bytes += block.byteLength;
    } else blocks.delete(key);
    blocks.set(key, block);
    const empty = ~(tigers | goatMask) & ((1 << 25) - 1);
    return block[emptyRank(tigers, empty) * 2 + (goatToMove ? 1 : 0)];
  }, bits);
}

/** `lookup` behind a direct-mapped cache of 2^bits boards. */
function cachedProbe(lookup: BoardProbe, bits: number): BoardProbe {
  const size = 1 << bits;
  const keys = new Float64Array(size).fill(-1);
  const values = new Int32Array(size);
  return (tigers, goatMask, captured, goatToMove) => {
    // Two 25-bit sets and the side fit a double exactly; the goats' count names the tier.
    const key = (goatMask * 33_554_432 + tigers) * 2 + (goatToMove ? 1 : 0);
    const slot =
      (Math.imul(tigers ^ Math.imul(goatMask, 0x9e3779b1), 0x85ebca6b) ^
        captured ^
        (goatToMove ? 0x5bd1e995 : 0)) >>>
      (32 - bits);
    if (keys[slot] === key) return values[slot]! < 0 ? undefined : values[slot];
    const value = lookup(tigers, goatMask, captured, goatToMove);
    keys[slot] = key;
    values[slot] = value ?? -1;
    return value;
  };
}
