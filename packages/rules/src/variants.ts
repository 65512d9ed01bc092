/** What differs between the variants: board, start, who moves first, when the tigers have won. */
import { type BoardKind, POINT_COUNT } from './geometry.js';
import type { OptionName, Options, Variant } from './types.js';

export interface VariantRules {
  readonly board: BoardKind;
  /** Options that are part of the variant itself (R10, R13) and cannot be turned off. */
  readonly fixedOptions: Partial<Options>;
  /** The options the variant has at all (R12: Bagh Chal has no multiJump; R23 and R26 for the others). */
  readonly optionNames: readonly OptionName[];
  readonly startTigers: readonly string[];
  readonly startStacks: readonly string[];
  readonly startStackHeight: number;
  readonly startGoatsInHand: number;
  /** R14: captures that win; R24: fewer remaining goats than this and the tigers have won. */
  readonly tigersWinAtCaptures: number | null;
  readonly tigersWinBelowRemaining: number | null;
}

/** Bagh Guti (R20–R24); Bagh Bandi is the same game on the orthogonal board. */
const BAGH_GUTI: VariantRules = {
  board: 'alquerque',
  fixedOptions: {},
  optionNames: ['goatsFirst', 'multiJump', 'noRepeat'],
  startTigers: ['c3', 'c5'],
  startStacks: ['b2', 'd2', 'b4', 'd4'],
  startStackHeight: 5,
  startGoatsInHand: 0,
  tigersWinAtCaptures: null,
  tigersWinBelowRemaining: 7,
};

export const VARIANT_RULES: { readonly [V in Variant]: VariantRules } = {
  'bagh-chal': {
    board: 'alquerque',
    fixedOptions: { goatsFirst: true, noRepeat: true },
    optionNames: ['goatsFirst', 'noRepeat'],
    startTigers: ['a1', 'e1', 'a5', 'e5'],
    startStacks: [],
    startStackHeight: 0,
    startGoatsInHand: 20,
    tigersWinAtCaptures: 5,
    tigersWinBelowRemaining: null,
  },
  'bagh-guti': BAGH_GUTI,
  'bagh-bandi': { ...BAGH_GUTI, board: 'orthogonal', tigersWinBelowRemaining: 6 },
};

export const DEFAULT_OPTIONS: Options = { goatsFirst: false, multiJump: false, noRepeat: false };

/** The options turned on that the variant does not have (they must be refused, not ignored). */
export function unsupportedOptions(variant: Variant, options: Partial<Options> = {}): OptionName[] {
  const { optionNames, fixedOptions } = VARIANT_RULES[variant];
  return (Object.keys(options) as OptionName[]).filter((name) => {
    const asked = options[name];
    if (asked === undefined) return false;
    const fixed = fixedOptions[name];
    // A fixed rule asked otherwise (Bagh Chal without goatsFirst) is refused, not overridden.
    if (fixed !== undefined) return asked !== fixed;
    return asked && !optionNames.includes(name);
  });
}

/** Why an option from `unsupportedOptions` is refused, in words. */
export function optionRefusal(variant: Variant, name: OptionName): string {
  const fixed = VARIANT_RULES[variant].fixedOptions[name];
  return fixed === undefined
    ? `${variant} has no option ${name}`
    : `${variant} always plays with ${name} ${fixed ? 'on' : 'off'}`;
}

/**
 * The options a player may choose for a variant: those it has that its own rules do not fix
 * (none for Bagh Chal, R10 and R13; all three for Bagh Guti and Bagh Bandi, R21, R23, R26).
 */
export function choosableOptions(variant: Variant): OptionName[] {
  const { optionNames, fixedOptions } = VARIANT_RULES[variant];
  return optionNames.filter((name) => fixedOptions[name] === undefined);
}

/** A form's boxes as the options asked for: only those the variant lets players choose. */
export function chosenOptions(
  variant: Variant,
  chosen: Readonly<Record<OptionName, boolean>>,
): Partial<Options> {
  return Object.fromEntries(choosableOptions(variant).map((name) => [name, chosen[name]]));
}

/** The options in force: what was asked for, with the variant's fixed rules on top. */
export function resolveOptions(variant: Variant, options: Partial<Options> = {}): Options {
  return { ...DEFAULT_OPTIONS, ...options, ...VARIANT_RULES[variant].fixedOptions };
}

export const emptyGoats = (): number[] => new Array<number>(POINT_COUNT).fill(0);
