/**
 * The room manager of a node that shares its store with other nodes. Commands already check the
 * stored version in the room's turn (Room); what this adds is the same check for a room read
 * outside a command (`GET /api/rooms/:id` uses `get` and reads the state), so no node serves a
 * snapshot older than the store's.
 */

import { RoomManager } from '../rooms/manager.js';
import type { Reduction } from '../rooms/reducer.js';
import type { Room } from '../rooms/room.js';

export class SharedRoomManager extends RoomManager {
  /** > 0 while `dispatch` looks the room up: the command's own check follows, no need for two. */
  #inDispatch = 0;

  override dispatch(...args: Parameters<RoomManager['dispatch']>): Promise<Reduction> {
    this.#inDispatch++;
    try {
      return super.dispatch(...args);
    } finally {
      this.#inDispatch--;
    }
  }

  override async get(roomId: string): Promise<Room | null> {
    if (this.#inDispatch > 0) return super.get(roomId);
    const room = await super.get(roomId);
    return room && (await room.sync()) ? room : null;
  }
}
