/** The vocabulary of the rules, declared once. */

export const SIDES = ['tiger', 'goat'] as const;
export type Side = (typeof SIDES)[number];

export const VARIANTS = ['bagh-chal', 'bagh-guti', 'bagh-bandi'] as const;
export type Variant = (typeof VARIANTS)[number];

export const OPTION_NAMES = ['goatsFirst', 'multiJump', 'noRepeat'] as const;
export type OptionName = (typeof OPTION_NAMES)[number];
export type Options = { readonly [K in OptionName]: boolean };

/** A point index 0..24: `row * 5 + column`, a1 = 0, e1 = 4, a5 = 20 (R1). */
export type Point = number;

export interface Place {
  readonly kind: 'place';
  readonly to: Point;
}
export interface Step {
  readonly kind: 'step';
  readonly from: Point;
  readonly to: Point;
}
/** One jump, or a multi-jump: `path` lists every landing point in order. */
export interface Jump {
  readonly kind: 'jump';
  readonly from: Point;
  readonly path: readonly Point[];
}
export type Move = Place | Step | Jump;

export const OUTCOME_REASONS = ['captures', 'trapped', 'blocked'] as const;
export type OutcomeReason = (typeof OUTCOME_REASONS)[number];
export interface Outcome {
  readonly winner: Side;
  readonly reason: OutcomeReason;
}

/**
 * A position: plain readonly JSON data. `goats[p]` is the number of goats on point p
 * (a stack when > 1); `tigers` is a bitmask of the points holding a tiger.
 */
export interface Position {
  readonly tigers: number;
  readonly goats: readonly number[];
  readonly toMove: Side;
  readonly goatsInHand: number;
  readonly goatsCaptured: number;
}

export type Result<T, E> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };
export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });

/** An error with a stable code for programs and a message for people. */
export interface RulesError<C extends string = string> {
  readonly code: C;
  readonly message: string;
}
export const rulesError = <C extends string>(code: C, message: string): RulesError<C> => ({ code, message });

export const opposite = (side: Side): Side => (side === 'tiger' ? 'goat' : 'tiger');
