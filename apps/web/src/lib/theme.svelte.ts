/** Dark/light theme: follows prefers-color-scheme until the user picks one with the toggle. */
export type Theme = 'light' | 'dark';
const KEY = 'bagh:theme';

function systemTheme(): Theme {
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: dark)').matches
    ? 'dark'
    : 'light';
}

function storedTheme(): Theme | null {
  try {
    const t = localStorage.getItem(KEY);
    return t === 'dark' || t === 'light' ? t : null;
  } catch {
    return null;
  }
}

class ThemeState {
  #theme = $state<Theme>(storedTheme() ?? systemTheme());

  get current(): Theme {
    return this.#theme;
  }

  toggle(): void {
    this.#theme = this.#theme === 'dark' ? 'light' : 'dark';
    try {
      localStorage.setItem(KEY, this.#theme);
    } catch {
      // not persisted
    }
    this.apply();
  }

  apply(): void {
    document.documentElement.dataset.theme = this.#theme;
  }
}

export const theme = new ThemeState();
