/** The gate from an unchecked position (from notation or an editor) to a legal one. */
import { POINT_COUNT } from './geometry.js';
import { MAX_STACK } from './hash.js';
import { err, ok, type Position, type Result, type RulesError, rulesError, type Variant } from './types.js';
import { emptyGoats, VARIANT_RULES } from './variants.js';

export type SetupErrorCode = 'ERR_SHARED_POINT' | 'ERR_STACK' | 'ERR_COUNTS' | 'ERR_SHAPE' | 'ERR_OPTION';
export type SetupError = RulesError<SetupErrorCode>;

const MAX_GOATS = 999;

export function startPosition(variant: Variant, goatsFirst: boolean): Position {
  const rules = VARIANT_RULES[variant];
  let tigers = 0;
  for (const name of rules.startTigers) tigers |= 1 << pointIndex(name);
  const goats = emptyGoats();
  for (const name of rules.startStacks) goats[pointIndex(name)] = rules.startStackHeight;
  return {
    tigers,
    goats,
    toMove: goatsFirst ? 'goat' : 'tiger',
    goatsInHand: rules.startGoatsInHand,
    goatsCaptured: 0,
  };
}

function pointIndex(name: string): number {
  return name.charCodeAt(0) - 97 + (name.charCodeAt(1) - 49) * 5;
}

/** Checks that `position` can stand on this variant's board; returns a normalised copy. */
export function positionFromSetup(variant: Variant, position: Position): Result<Position, SetupError> {
  const { goats } = position;
  if (!Array.isArray(goats) || goats.length !== POINT_COUNT) {
    return err(rulesError('ERR_SHAPE', `goats must list ${POINT_COUNT} points`));
  }
  if (!Number.isInteger(position.tigers) || position.tigers < 0 || position.tigers >= 2 ** POINT_COUNT) {
    return err(rulesError('ERR_SHAPE', 'tigers must be a bitmask of the 25 points'));
  }
  for (let p = 0; p < POINT_COUNT; p++) {
    const h = goats[p]!;
    if (!Number.isInteger(h) || h < 0 || h > MAX_STACK) {
      return err(rulesError('ERR_STACK', `point ${p} holds ${h} goats; 0 to ${MAX_STACK} are possible`));
    }
    if (h > 0 && (position.tigers >>> p) & 1) {
      return err(rulesError('ERR_SHARED_POINT', 'a tiger and a goat share a point'));
    }
    if (h > 1 && variant === 'bagh-chal') {
      return err(rulesError('ERR_STACK', 'Bagh Chal has no stacks of goats'));
    }
  }
  for (const [name, count] of [
    ['goats in hand', position.goatsInHand],
    ['goats captured', position.goatsCaptured],
  ] as const) {
    if (!Number.isInteger(count) || count < 0 || count > MAX_GOATS) {
      return err(rulesError('ERR_COUNTS', `${name} must be a whole number from 0 to ${MAX_GOATS}`));
    }
  }
  if (position.toMove !== 'tiger' && position.toMove !== 'goat') {
    return err(rulesError('ERR_SHAPE', 'the side to move must be tiger or goat'));
  }
  return ok({
    tigers: position.tigers,
    goats: [...goats],
    toMove: position.toMove,
    goatsInHand: position.goatsInHand,
    goatsCaptured: position.goatsCaptured,
  });
}
