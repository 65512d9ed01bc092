/**
 * Sounds for place, move, capture and game end: short tones made with the Web Audio API (no
 * files). Muting is remembered per browser in localStorage.
 */
export type SoundKind = 'place' | 'move' | 'capture' | 'end';

const KEY = 'bagh:muted';

/** Each sound: notes of [frequency Hz, start s, length s], and the oscillator type. */
const TONES: { readonly [K in SoundKind]: { wave: OscillatorType; notes: [number, number, number][] } } = {
  place: { wave: 'triangle', notes: [[660, 0, 0.08]] },
  move: { wave: 'sine', notes: [[440, 0, 0.09]] },
  capture: {
    wave: 'square',
    notes: [
      [300, 0, 0.07],
      [180, 0.07, 0.12],
    ],
  },
  end: {
    wave: 'triangle',
    notes: [
      [523, 0, 0.14],
      [659, 0.14, 0.14],
      [784, 0.28, 0.28],
    ],
  },
};

function readMuted(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export class Sounds {
  #muted = $state(typeof localStorage === 'undefined' ? false : readMuted());
  #context: AudioContext | null = null;

  get muted(): boolean {
    return this.#muted;
  }

  toggle(): void {
    this.#muted = !this.#muted;
    try {
      localStorage.setItem(KEY, this.#muted ? '1' : '0');
    } catch {
      // private mode: muted for this tab only
    }
  }

  play(kind: SoundKind): void {
    if (this.#muted || typeof AudioContext === 'undefined') return;
    try {
      this.#context ??= new AudioContext();
      const ctx = this.#context;
      if (ctx.state === 'suspended') void ctx.resume();
      const { wave, notes } = TONES[kind];
      for (const [frequency, start, length] of notes) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        const t = ctx.currentTime + start;
        osc.type = wave;
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, t);
        gain.gain.exponentialRampToValueAtTime(0.15, t + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t);
        osc.stop(t + length + 0.02);
      }
    } catch {
      // no audio device: stay silent
    }
  }
}

/** The sound a move text makes (RULES.md R40): a placement, a capture (a jump) or a step. */
export const soundOfMove = (text: string): SoundKind =>
  text.startsWith('G@') ? 'place' : text.includes('x') ? 'capture' : 'move';

export const sounds = new Sounds();
