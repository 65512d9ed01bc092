/**
 * The mutable board used for move generation, perft and search: bitboards, stack heights and an
 * incrementally updated hash. Public code reaches it only through `game.ts`, which keeps positions
 * immutable; everything here that mutates says so by being a method of this class.
 */
import {
  ALL_POINTS_MASK,
  GEOMETRIES,
  type Geometry,
  lowestPoint,
  POINT_COUNT,
  popcount,
} from './geometry.js';
import { GOAT_KEYS, GOAT_TO_MOVE_KEY, handKey, MAX_STACK, TIGER_KEYS } from './hash.js';
import type { Move, Options, Position, Variant } from './types.js';
import { emptyGoats, VARIANT_RULES, type VariantRules } from './variants.js';

/** Moves packed in one int for the fast paths: kind | from << 2 | to << 7 | over << 12. */
export const PLACE = 0;
export const STEP = 1;
export const JUMP = 2;
export const moveKind = (m: number): number => m & 3;
export const moveFrom = (m: number): number => (m >>> 2) & 31;
export const moveTo = (m: number): number => (m >>> 7) & 31;
const packMove = (kind: number, from: number, to: number, over: number): number =>
  kind | (from << 2) | (to << 7) | (over << 12);

/** Enough room for every move of one position (20 goats × 8 lines is the most there can be). */
export const MAX_MOVES = 256;
const STACK_STRIDE = MAX_STACK + 1;

export type ExactKey = number | string;

/** The positions of a game's history that the no-repeat rule (R13) compares against. */
export class RepetitionTable {
  private readonly byHash = new Map<number, ExactKey[]>();

  /** The exact key is computed only when the hash matches, so a miss costs one lookup. */
  has(hash: number, exactKey: () => ExactKey): boolean {
    const keys = this.byHash.get(hash);
    return keys?.includes(exactKey()) === true;
  }

  add(hash: number, key: ExactKey): void {
    const keys = this.byHash.get(hash);
    if (keys) keys.push(key);
    else this.byHash.set(hash, [key]);
  }

  /** Undoes the latest `add` of this hash (search and perft unwind in order). */
  removeLast(hash: number): void {
    const keys = this.byHash.get(hash);
    if (!keys) return;
    keys.pop();
    if (keys.length === 0) this.byHash.delete(hash);
  }

  clone(): RepetitionTable {
    const copy = new RepetitionTable();
    for (const [hash, keys] of this.byHash) copy.byHash.set(hash, [...keys]);
    return copy;
  }
}

export class Board {
  readonly geometry: Geometry;
  readonly rules: VariantRules;
  readonly multiJump: boolean;
  readonly noRepeat: boolean;
  tigers = 0;
  /** Points holding at least one goat. */
  goatMask = 0;
  readonly heights = new Int32Array(POINT_COUNT);
  /** Points holding two or more goats. */
  stackedCount = 0;
  goatsOnBoard = 0;
  goatToMove = false;
  goatsInHand = 0;
  goatsCaptured = 0;
  hash = 0;

  constructor(variant: Variant, options: Options, position: Position) {
    this.rules = VARIANT_RULES[variant];
    this.geometry = GEOMETRIES[this.rules.board];
    this.multiJump = options.multiJump;
    this.noRepeat = options.noRepeat;
    this.tigers = position.tigers;
    for (let p = 0; p < POINT_COUNT; p++) {
      const h = position.goats[p] ?? 0;
      if (h === 0) continue;
      this.heights[p] = h;
      this.goatMask |= 1 << p;
      this.goatsOnBoard += h;
      if (h > 1) this.stackedCount++;
    }
    this.goatToMove = position.toMove === 'goat';
    this.goatsInHand = position.goatsInHand;
    this.goatsCaptured = position.goatsCaptured;
    this.hash = this.computeHash();
  }

  computeHash(): number {
    let hash = handKey(this.goatsInHand) ^ (this.goatToMove ? GOAT_TO_MOVE_KEY : 0);
    for (let p = 0; p < POINT_COUNT; p++) {
      if ((this.tigers >>> p) & 1) hash ^= TIGER_KEYS[p]!;
      hash ^= GOAT_KEYS[p * STACK_STRIDE + this.heights[p]!]!;
    }
    return hash;
  }

  toPosition(): Position {
    const goats = emptyGoats();
    for (let p = 0; p < POINT_COUNT; p++) goats[p] = this.heights[p]!;
    return {
      tigers: this.tigers,
      goats,
      toMove: this.goatToMove ? 'goat' : 'tiger',
      goatsInHand: this.goatsInHand,
      goatsCaptured: this.goatsCaptured,
    };
  }

  get emptyMask(): number {
    return ~(this.tigers | this.goatMask) & ALL_POINTS_MASK;
  }

  /** R14 / R24: have the tigers already won by capturing? */
  tigersHaveWon(): boolean {
    const { tigersWinAtCaptures, tigersWinBelowRemaining } = this.rules;
    if (tigersWinAtCaptures !== null && this.goatsCaptured >= tigersWinAtCaptures) return true;
    return tigersWinBelowRemaining !== null && this.goatsOnBoard + this.goatsInHand < tigersWinBelowRemaining;
  }

  /** The exact identity of a position for R13. Only positions with no goat in hand are compared. */
  exactKey(): ExactKey {
    const side = this.goatToMove ? 1 : 0;
    if (this.stackedCount === 0) return this.tigers * 0x4000000 + this.goatMask * 2 + side;
    return `${this.tigers}/${side}/${this.heights.join(',')}`;
  }

  /** Is the current position forbidden by the no-repeat rule (R13) against `history`? */
  repeats(history: RepetitionTable): boolean {
    return this.noRepeat && this.goatsInHand === 0 && history.has(this.hash, () => this.exactKey());
  }

  /** Adds the current position to `history` when R13 could ever compare against it. */
  record(history: RepetitionTable): void {
    if (this.noRepeat && this.goatsInHand === 0) history.add(this.hash, this.exactKey());
  }

  unrecord(history: RepetitionTable): void {
    if (this.noRepeat && this.goatsInHand === 0) history.removeLast(this.hash);
  }

  // --- mutation -------------------------------------------------------------------------------

  private addGoat(p: number): void {
    const h = this.heights[p]!;
    this.hash ^= GOAT_KEYS[p * STACK_STRIDE + h]! ^ GOAT_KEYS[p * STACK_STRIDE + h + 1]!;
    this.heights[p] = h + 1;
    this.goatMask |= 1 << p;
    this.goatsOnBoard++;
    if (h === 1) this.stackedCount++;
  }

  private removeGoat(p: number): void {
    const h = this.heights[p]!;
    this.hash ^= GOAT_KEYS[p * STACK_STRIDE + h]! ^ GOAT_KEYS[p * STACK_STRIDE + h - 1]!;
    this.heights[p] = h - 1;
    if (h === 1) this.goatMask &= ~(1 << p);
    if (h === 2) this.stackedCount--;
    this.goatsOnBoard--;
  }

  private moveTiger(from: number, to: number): void {
    this.tigers = (this.tigers & ~(1 << from)) | (1 << to);
    this.hash ^= TIGER_KEYS[from]! ^ TIGER_KEYS[to]!;
  }

  private setHand(count: number): void {
    this.hash ^= handKey(this.goatsInHand) ^ handKey(count);
    this.goatsInHand = count;
  }

  private switchSide(): void {
    this.goatToMove = !this.goatToMove;
    this.hash ^= GOAT_TO_MOVE_KEY;
  }

  /** Plays a packed move, which must be pseudo-legal here. */
  makePacked(m: number): void {
    const kind = m & 3;
    const to = (m >>> 7) & 31;
    if (kind === PLACE) {
      this.setHand(this.goatsInHand - 1);
      this.addGoat(to);
    } else {
      const from = (m >>> 2) & 31;
      if (this.goatToMove) {
        this.removeGoat(from);
        this.addGoat(to);
      } else {
        this.moveTiger(from, to);
        if (kind === JUMP) {
          this.removeGoat((m >>> 12) & 31);
          this.goatsCaptured++;
        }
      }
    }
    this.switchSide();
  }

  unmakePacked(m: number): void {
    this.switchSide();
    const kind = m & 3;
    const to = (m >>> 7) & 31;
    if (kind === PLACE) {
      this.removeGoat(to);
      this.setHand(this.goatsInHand + 1);
    } else {
      const from = (m >>> 2) & 31;
      if (this.goatToMove) {
        this.removeGoat(to);
        this.addGoat(from);
      } else {
        this.moveTiger(to, from);
        if (kind === JUMP) {
          this.addGoat((m >>> 12) & 31);
          this.goatsCaptured--;
        }
      }
    }
  }

  /** Plays a move object, which must be pseudo-legal here (multi-jumps included). */
  make(move: Move): void {
    if (move.kind !== 'jump') {
      this.makePacked(
        packMove(move.kind === 'place' ? PLACE : STEP, move.kind === 'step' ? move.from : 0, move.to, 0),
      );
      return;
    }
    let at = move.from;
    for (const land of move.path) {
      this.removeGoat(this.geometry.jumpOverBetween[at * POINT_COUNT + land]!);
      this.goatsCaptured++;
      at = land;
    }
    this.moveTiger(move.from, at);
    this.switchSide();
  }

  unmake(move: Move): void {
    if (move.kind !== 'jump') {
      this.unmakePacked(
        packMove(move.kind === 'place' ? PLACE : STEP, move.kind === 'step' ? move.from : 0, move.to, 0),
      );
      return;
    }
    this.switchSide();
    let at = move.from;
    for (const land of move.path) {
      this.addGoat(this.geometry.jumpOverBetween[at * POINT_COUNT + land]!);
      this.goatsCaptured--;
      at = land;
    }
    this.moveTiger(at, move.from);
  }

  // --- generation -----------------------------------------------------------------------------

  /**
   * Writes the pseudo-legal single moves (R11, R12, R22, R23 without continuation) into `out`
   * from `start`; returns how many. The no-repeat rule is the caller's to apply.
   */
  generatePacked(out: Int32Array, start: number): number {
    const empty = this.emptyMask;
    const { neighbours } = this.geometry;
    let n = start;
    if (this.goatToMove) {
      if (this.goatsInHand > 0) {
        for (let e = empty; e !== 0; e &= e - 1) out[n++] = packMove(PLACE, 0, lowestPoint(e), 0);
        return n - start;
      }
      for (let g = this.goatMask; g !== 0; g &= g - 1) {
        const from = lowestPoint(g);
        for (let t = neighbours[from]! & empty; t !== 0; t &= t - 1) {
          out[n++] = packMove(STEP, from, lowestPoint(t), 0);
        }
      }
      return n - start;
    }
    const { jumpCount, jumpOver, jumpLand } = this.geometry;
    for (let tg = this.tigers; tg !== 0; tg &= tg - 1) {
      const from = lowestPoint(tg);
      for (let t = neighbours[from]! & empty; t !== 0; t &= t - 1) {
        out[n++] = packMove(STEP, from, lowestPoint(t), 0);
      }
      const jumps = jumpCount[from]!;
      for (let i = 0; i < jumps; i++) {
        const over = jumpOver[from * 8 + i]!;
        const land = jumpLand[from * 8 + i]!;
        if (((this.goatMask >>> over) & (empty >>> land) & 1) !== 0)
          out[n++] = packMove(JUMP, from, land, over);
      }
    }
    return n - start;
  }

  /** How many pseudo-legal single moves the side to move has, without listing them. */
  countPacked(): number {
    const empty = this.emptyMask;
    const { neighbours } = this.geometry;
    let n = 0;
    if (this.goatToMove) {
      if (this.goatsInHand > 0) return popcount(empty);
      for (let g = this.goatMask; g !== 0; g &= g - 1) n += popcount(neighbours[lowestPoint(g)]! & empty);
      return n;
    }
    const { jumpCount, jumpOver, jumpLand } = this.geometry;
    for (let tg = this.tigers; tg !== 0; tg &= tg - 1) {
      const from = lowestPoint(tg);
      n += popcount(neighbours[from]! & empty);
      const jumps = jumpCount[from]!;
      for (let i = 0; i < jumps; i++) {
        n += (this.goatMask >>> jumpOver[from * 8 + i]!) & (empty >>> jumpLand[from * 8 + i]!) & 1;
      }
    }
    return n;
  }

  /** Every pseudo-legal move as an object, multi-jumps included when the option is on. */
  generateMoves(): Move[] {
    const packed = new Int32Array(MAX_MOVES);
    const count = this.generatePacked(packed, 0);
    const moves: Move[] = [];
    for (let i = 0; i < count; i++) {
      const m = packed[i]!;
      const kind = m & 3;
      if (kind === PLACE) moves.push({ kind: 'place', to: moveTo(m) });
      else if (kind === STEP) moves.push({ kind: 'step', from: moveFrom(m), to: moveTo(m) });
      else if (!this.multiJump) moves.push({ kind: 'jump', from: moveFrom(m), path: [moveTo(m)] });
      else {
        const from = moveFrom(m);
        // Each single jump starts a tree of continuations; list the root once per tiger.
        if (moves.some((x) => x.kind === 'jump' && x.from === from)) continue;
        this.collectMultiJumps(from, from, [], 0, moves);
      }
    }
    return moves;
  }

  /** R23 multiJump: continue from `at`, never jumping a point twice, stopping after any jump. */
  private collectMultiJumps(origin: number, at: number, path: number[], jumped: number, out: Move[]): void {
    const { jumpCount, jumpOver, jumpLand } = this.geometry;
    const jumps = jumpCount[at]!;
    for (let i = 0; i < jumps; i++) {
      const over = jumpOver[at * 8 + i]!;
      const land = jumpLand[at * 8 + i]!;
      if (((jumped >>> over) & 1) !== 0 || ((this.goatMask >>> over) & 1) === 0) continue;
      if (((this.emptyMask >>> land) & 1) === 0) continue;
      this.removeGoat(over);
      this.moveTiger(at, land);
      path.push(land);
      out.push({ kind: 'jump', from: origin, path: [...path] });
      this.collectMultiJumps(origin, land, path, jumped | (1 << over), out);
      path.pop();
      this.moveTiger(land, at);
      this.addGoat(over);
    }
  }

  /** The legal moves: pseudo-legal ones whose result the no-repeat rule allows. */
  legalMoves(history: RepetitionTable): Move[] {
    const moves = this.generateMoves();
    if (!this.noRepeat) return moves;
    return moves.filter((move) => {
      this.make(move);
      const allowed = !this.repeats(history);
      this.unmake(move);
      return allowed;
    });
  }
}
