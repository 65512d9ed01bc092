/**
 * A tiny client-side router: `/` (home), `/live` (public games), `/games` (finished games),
 * `/computer` (the computer, offline) and `/r/<roomId>` (room).
 */
export type Route =
  | { readonly page: 'home' }
  | { readonly page: 'live' }
  | { readonly page: 'games' }
  | { readonly page: 'computer' }
  | { readonly page: 'room'; readonly roomId: string };

export function matchRoute(pathname: string): Route {
  const room = /^\/r\/([A-Za-z0-9_-]{1,64})\/?$/.exec(pathname);
  if (room) return { page: 'room', roomId: room[1]! };
  if (/^\/live\/?$/.test(pathname)) return { page: 'live' };
  if (/^\/games\/?$/.test(pathname)) return { page: 'games' };
  if (/^\/computer\/?$/.test(pathname)) return { page: 'computer' };
  return { page: 'home' };
}

export class Router {
  #path = $state(typeof location === 'undefined' ? '/' : location.pathname);
  route = $derived(matchRoute(this.#path));

  constructor() {
    if (typeof window !== 'undefined') {
      window.addEventListener('popstate', () => {
        this.#path = location.pathname;
      });
    }
  }

  get path(): string {
    return this.#path;
  }

  navigate(path: string): void {
    if (path === this.#path) return;
    history.pushState(null, '', path);
    this.#path = path;
    window.scrollTo(0, 0);
  }
}

export const router = new Router();
