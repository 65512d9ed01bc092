/**
 * Whether the browser has a network, kept current by the online/offline events; and the service
 * worker's registration (a production build only: vite-plugin-pwa writes /sw.js at build time).
 */
class Network {
  online = $state(typeof navigator === 'undefined' ? true : navigator.onLine);

  constructor() {
    if (typeof window === 'undefined') return;
    window.addEventListener('online', () => (this.online = true));
    window.addEventListener('offline', () => (this.online = false));
  }
}

export const network = new Network();

/** Registers /sw.js, which precaches the app so /computer loads and plays with no network. */
export function registerServiceWorker(): void {
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    window.addEventListener('load', () => void navigator.serviceWorker.register('/sw.js').catch(() => {}));
  }
}
