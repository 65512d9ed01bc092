/** The client's address: the key every per-person limit counts by, for HTTP and sockets alike. */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/**
 * With TRUST_PROXY, the last `X-Forwarded-For` entry: the address our own proxy saw the client
 * connect from (the proxy appends it; anything left of it was written by the client and can be
 * forged). Else, or when that entry is not an address, the connection's remote address.
 * IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is written as IPv4, so both ways of reaching us agree;
 * other IPv6 addresses count by their /64, the network one subscriber is given (each device
 * picks addresses in it at will, so a single IPv6 address would count nobody).
 */
export function clientAddress(
  remoteAddress: string | undefined,
  headers: IncomingHttpHeaders,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = headers['x-forwarded-for'];
    const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',');
    const nearest = hops.at(-1)?.trim() ?? '';
    if (isIP(nearest) !== 0) return normalize(nearest);
  }
  return normalize(remoteAddress ?? 'unknown');
}

/** clientAddress with the proxy setting bound: what the HTTP routes and the socket edge are given. */
export type AddressOf = (remoteAddress: string | undefined, headers: IncomingHttpHeaders) => string;

function normalize(address: string): string {
  if (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4) return address.slice(7);
  return isIP(address) === 6 ? prefix64(address) : address;
}

/** The /64 of an IPv6 address, e.g. `2001:db8:0:7::/64`. */
function prefix64(address: string): string {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
