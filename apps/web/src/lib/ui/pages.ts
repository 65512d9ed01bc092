/**
 * The home page, the live list and the finished games: one lazy chunk (none is on a room's first
 * load). Apart they were three small chunks, each with its own list of the entry's imports.
 */
export { default as Games } from './Games.svelte';
export { default as Home } from './Home.svelte';
export { default as Live } from './Live.svelte';
