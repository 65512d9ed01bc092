/** The client's address: the key every per-person limit counts by, for HTTP and sockets alike. */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/**
 * With TRUST_PROXY, the last `X-Forwarded-For` entry: the address our own proxy saw the client
 * connect from (the proxy appends it; anything left of it was written by the client and can be
 * forged). Else, or when that entry is not an address, the connection's remote address.
 * IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is written as IPv4, so both ways of reaching us agree.
 */
export function clientAddress(
  remoteAddress: string | undefined,
  headers: IncomingHttpHeaders,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = headers['x-forwarded-for'];
    const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',');
    const nearest = normalize(hops.at(-1)?.trim() ?? '');
    if (isIP(nearest) !== 0) return nearest;
  }
  return normalize(remoteAddress ?? 'unknown');
}

/** clientAddress with the proxy setting bound: what the HTTP routes and the socket edge are given. */
export type AddressOf = (remoteAddress: string | undefined, headers: IncomingHttpHeaders) => string;

const normalize = (address: string): string =>
  address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
