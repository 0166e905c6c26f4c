import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client a per-address limit counts. An IPv4 address is itself (an IPv4-mapped IPv6 address
 * too); an IPv6 address counts by its /64 network, since one subscriber, however small, is given a
 * whole /64 and could otherwise take a fresh address for every request. Anything that is not an IP
 * address (a test double, a unix socket's empty address) is counted as given.
 */
export function clientKey(ip: string): string {
  if (isIPv4(ip)) return ip;
  const bare = ip.split('%', 1)[0] ?? '';
  if (!isIPv6(bare)) return ip;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 split in two). */
function ipv6Groups(ip: string): number[] {
  const toGroups = (part: string): number[] => {
    if (!part) return [];
    return part.split(':').flatMap((piece) => {
      if (!piece.includes('.')) return [Number.parseInt(piece, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const [head = '', tail] = ip.split('::');
  const first = toGroups(head);
  if (tail === undefined) return first;
  const last = toGroups(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}
