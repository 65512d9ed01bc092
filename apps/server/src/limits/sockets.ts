/**
 * At most `max` sockets per client address on this node. The handshake of one more is refused
 * (`connect_error` with `data: { code: 'RATE_LIMITED' }`); a socket frees its place on disconnect.
 * A session brought back by connection state recovery skips the middlewares, so it is counted and
 * refused on connection instead. Below Socket.IO, an address's Engine.IO connections (counted
 * whether or not they ever join the namespace) are refused at the handshake past twice `max`.
 */
import type { IncomingMessage } from 'node:http';
import type { BaghServer } from '../socket/handlers.js';
import type { AddressOf } from './address.js';

export interface SocketCapOptions {
  readonly max: number;
  readonly addressOf: AddressOf;
  readonly onRefused?: () => void;
}

export class SocketCap {
  readonly #sockets = new Counter();
  readonly #connections = new Counter();

  readonly #opts: SocketCapOptions;

  constructor(opts: SocketCapOptions) {
    this.#opts = opts;
  }

  /** For `new Server(…, { allowRequest })`: an Engine.IO handshake from an address at twice the cap is refused. */
  readonly allowRequest = (
    request: IncomingMessage,
    answer: (error: string | null | undefined, ok: boolean) => void,
  ) => {
    const address = this.#opts.addressOf(request.socket.remoteAddress, request.headers);
    if (this.#connections.of(address) < 2 * this.#opts.max) return answer(null, true);
    this.#opts.onRefused?.();
    answer('too many connections from one address', false);
  };

  attach(io: BaghServer): void {
    io.engine.on(
      'connection',
      (connection: { request: IncomingMessage; once(e: 'close', f: () => void): void }) => {
        const address = this.#opts.addressOf(
          connection.request.socket.remoteAddress,
          connection.request.headers,
        );
        this.#connections.add(address);
        connection.once('close', () => this.#connections.remove(address));
      },
    );
    io.use((socket, next) => {
      if (this.#sockets.of(this.#addressOf(socket)) < this.#opts.max) return next();
      this.#opts.onRefused?.();
      next(Object.assign(new Error(this.#why()), { data: { code: 'RATE_LIMITED' } }));
    });
    // Counted on connection, not in the middleware: a handshake that dies between the two would
    // otherwise never give its place back.
    io.on('connection', (socket) => {
      const address = this.#addressOf(socket);
      if (socket.recovered && this.#sockets.of(address) >= this.#opts.max) {
        this.#opts.onRefused?.();
        socket.disconnect(true);
        return;
      }
      this.#sockets.add(address);
      socket.once('disconnect', () => this.#sockets.remove(address));
    });
  }

  #addressOf(socket: { handshake: { address: string; headers: IncomingMessage['headers'] } }): string {
    return this.#opts.addressOf(socket.handshake.address, socket.handshake.headers);
  }

  #why(): string {
    return `too many connections from one address (at most ${this.#opts.max}); close some tabs and retry`;
  }
}

/** How many of something each address holds. */
class Counter {
  readonly #counts = new Map<string, number>();

  of(address: string): number {
    return this.#counts.get(address) ?? 0;
  }

  add(address: string): void {
    this.#counts.set(address, this.of(address) + 1);
  }

  remove(address: string): void {
    const left = this.of(address) - 1;
    if (left > 0) this.#counts.set(address, left);
    else this.#counts.delete(address);
  }
}
