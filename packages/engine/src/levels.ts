/** The computer's levels: how deep or long it searches and how often it errs like a person. */
import type { SearchLimits } from './search.js';

export const LEVELS = ['beginner', 'casual', 'strong', 'max'] as const;
export type Level = (typeof LEVELS)[number];

export interface LevelSettings {
  readonly limits: SearchLimits;
  /**
   * Softmax temperature over the root scores, in captures (the side's capture weight, so both
   * sides err alike on their own score scales): 0 always plays the best move;
   * higher values pick worse moves more often (a beginner overlooks threats).
   */
  readonly temperature: number;
  /** The most a move may take, budget included, in milliseconds. */
  readonly budgetMs: number;
}

export const LEVEL_SETTINGS: { readonly [L in Level]: LevelSettings } = {
  beginner: { limits: { maxDepth: 1, exactRootScores: true, timeMs: 200 }, temperature: 0.5, budgetMs: 400 },
  casual: { limits: { maxDepth: 3, exactRootScores: true, timeMs: 400 }, temperature: 0.1, budgetMs: 800 },
  strong: { limits: { maxDepth: 64, maxNodes: 40_000, timeMs: 800 }, temperature: 0, budgetMs: 1_200 },
  max: {
    limits: {
      maxDepth: 64,
      maxNodes: 2_000_000,
      timeMs: 2_500,
      endgame: true,
      reductions: true,
      goatBudget: true,
    },
    temperature: 0,
    // The goats' longest move: timeMs × GOAT_BUDGET_SHAPE.transition, and a margin.
    budgetMs: 5_500,
  },
};
