/** Seat tokens, one per room, kept in localStorage so a reload puts the player back in their seat. */
const key = (roomId: string): string => `bagh:seat:${roomId}`;

export interface TokenStore {
  get(roomId: string): string | undefined;
  set(roomId: string, token: string): void;
}

export const localTokens: TokenStore = {
  get(roomId) {
    try {
      return localStorage.getItem(key(roomId)) ?? undefined;
    } catch {
      return undefined;
    }
  },
  set(roomId, token) {
    try {
      localStorage.setItem(key(roomId), token);
    } catch {
      // private mode: the seat lasts as long as the tab
    }
  },
};
