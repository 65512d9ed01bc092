/**
 * At most `max` sockets per client address on this node. The handshake of one more is refused
 * (`connect_error` with `data: { code: 'RATE_LIMITED' }`); a socket frees its place on disconnect.
 */
import type { BaghServer } from '../socket/handlers.js';
import type { AddressOf } from './address.js';

export function capSocketsPerAddress(
  io: BaghServer,
  opts: {
    readonly max: number;
    readonly addressOf: AddressOf;
    readonly onRefused?: () => void;
  },
): void {
  const open = new Map<string, number>();
  io.use((socket, next) => {
    if ((open.get(opts.addressOf(socket.handshake.address, socket.handshake.headers)) ?? 0) < opts.max)
      return next();
    opts.onRefused?.();
    const message = `too many connections from one address (at most ${opts.max}); close some tabs and retry`;
    next(Object.assign(new Error(message), { data: { code: 'RATE_LIMITED' } }));
  });
  // Counted on connection, not in the middleware: a recovered socket skips the middlewares, and a
  // handshake that dies between the two would otherwise never give its place back.
  io.on('connection', (socket) => {
    const address = opts.addressOf(socket.handshake.address, socket.handshake.headers);
    open.set(address, (open.get(address) ?? 0) + 1);
    socket.once('disconnect', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
