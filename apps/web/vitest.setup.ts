import { configure } from '@testing-library/svelte';

// waitFor/findBy* wait up to 1 s by default: too little for a loaded machine (a safety bound, not a claim of speed).
configure({ asyncUtilTimeout: 20_000 });
