/**
 * Where the shop may send a push (api/push/README.md, "Where pushes go"). A subscription's
 * endpoint is a URL the shopper hands us, and the shop connects to it from inside its own
 * network: only the browser vendors' push services are reachable, by name, on port 443, and only
 * at an address that is not private when the name is resolved for the send.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export const KNOWN_PUSH_HOSTS: readonly string[] = [
  'fcm.googleapis.com', // Chrome, Edge on Android, Opera, Samsung Internet
  'updates.push.services.mozilla.com', // Firefox
  '*.notify.windows.com', // Edge on Windows (WNS)
  'web.push.apple.com', // Safari
];

export interface PushTargets {
  /** Host names: exact, or `*.example.com` for any name under example.com. */
  hosts: readonly string[];
  /** The one loopback push service a test may use (TEST_PUSH_SERVICE); never set in production. */
  testService: { host: string; port: number } | null;
}

export const PUSH_PORT = 443;

/** Why the shop will not push to this endpoint (a sentence for the shopper), or null when it will. */
export function endpointProblem(endpoint: string, targets: PushTargets): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'The endpoint must be an https URL.';
  }
  if (url.protocol !== 'https:') return 'The endpoint must be an https URL.';
  if (url.username || url.password) return 'The endpoint must not carry a user name or password.';
  // WHATWG parsing has already turned 127.1, 0x7f000001 and 2130706433 into 127.0.0.1.
  return targetProblem(url.hostname, url.port === '' ? PUSH_PORT : Number(url.port), targets);
}

/**
 * The rule for one host and port, whether read from the stored endpoint or from what the HTTPS
 * request is about to connect to (web-push parses the URL its own way: the connection is checked
 * again with what it really uses).
 */
export function targetProblem(rawHost: string, port: number, targets: PushTargets): string | null {
  const host = rawHost.toLowerCase().replace(/^\[|\]$/g, '');
  const test = targets.testService;
  if (test && host === test.host && port === test.port) return null;
  if (isIP(host) !== 0) return 'The endpoint must name a known push service, not an IP address.';
  // The test service's port is allowed for named hosts too: they must still resolve to a public address.
  if (port !== PUSH_PORT && port !== test?.port) return 'Push services answer on port 443 only.';
  if (!hostAllowed(host, targets.hosts))
    return `${host} is not a known push service, so order updates cannot be sent there.`;
  return null;
}

export function hostAllowed(host: string, hosts: readonly string[]): boolean {
  return hosts.some((allowed) =>
    allowed.startsWith('*.')
      ? host.endsWith(allowed.slice(1)) && host.length > allowed.length - 1
      : host === allowed,
  );
}

/**
 * Addresses that are not the public internet: unspecified, loopback, private, CGNAT, link-local,
 * unique-local, multicast, documentation and reserved ranges, and IPv6 forms that carry one of
 * those IPv4 addresses (IPv4-mapped, NAT64, 6to4).
 */
const NOT_PUBLIC = (() => {
  const list = new BlockList();
  const v4: [string, number][] = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ];
  for (const [net, bits] of v4) {
    list.addSubnet(net, bits, 'ipv4');
    list.addSubnet(`::ffff:${net}`, 96 + bits, 'ipv6');
    list.addSubnet(`64:ff9b::${net}`, 96 + bits, 'ipv6');
    const [a = 0, b = 0, c = 0, d = 0] = net.split('.').map(Number);
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    list.addSubnet(`2002:${hex(a, b)}:${hex(c, d)}::`, 16 + bits, 'ipv6');
  }
  const v6: [string, number][] = [
    ['::', 96], // unspecified, loopback, and the old IPv4-compatible form
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001::', 23],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ];
  for (const [net, bits] of v6) list.addSubnet(net, bits, 'ipv6');
  return list;
})();

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class PushTargetError extends Error {
  override name = 'PushTargetError';
}

export interface PushAgentOptions {
  targets: PushTargets;
  /** TCP and TLS handshake together. */
  connectTimeoutMs: number;
  /** From the handshake to the end of the answer. */
  answerTimeoutMs: number;
  /** Certificates to trust instead of the system's (tests trust their local push service). */
  ca?: string | Buffer;
  /** Name resolution (the system's by default). */
  resolve?: typeof dnsLookup;
}

/**
 * The HTTPS agent every push goes through. Before a connection is made it checks the host and
 * port against the targets; the name is resolved once, every answer must be a public address,
 * and the socket connects to the address that was checked (the `lookup` hook hands it over, so
 * nothing resolves the name a second time). TLS still verifies the certificate for the name.
 * Each connection has a deadline for connecting and one for the answer, so a push service that
 * accepts and never answers costs one slot for a bounded time.
 */
export class PushAgent extends https.Agent {
  private readonly sockets_ = new Set<Duplex>();

  constructor(private readonly push: PushAgentOptions) {
    super({ keepAlive: false, ...(push.ca ? { ca: push.ca } : {}) });
  }

  override createConnection(
    options: https.RequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const host = String(options.host ?? options.hostname ?? '');
    const port = Number(options.port ?? PUSH_PORT);
    const problem = targetProblem(host, port, this.push.targets);
    if (problem) {
      process.nextTick(() => callback?.(new PushTargetError(problem), undefined as unknown as Duplex));
      return undefined;
    }
    // An address never reaches the lookup below (the socket connects to it as it is): only the
    // test seam's passed the check above.
    const socket = super.createConnection(
      { ...options, lookup: this.pinnedLookup() } as https.RequestOptions,
      callback,
    ) as Socket;
    this.sockets_.add(socket);
    let deadline = setTimeout(
      () => socket.destroy(new Error(`no connection within ${this.push.connectTimeoutMs} ms`)),
      this.push.connectTimeoutMs,
    );
    socket.once('secureConnect', () => {
      clearTimeout(deadline);
      deadline = setTimeout(
        () => socket.destroy(new Error(`no answer within ${this.push.answerTimeoutMs} ms`)),
        this.push.answerTimeoutMs,
      );
    });
    socket.once('close', () => {
      clearTimeout(deadline);
      this.sockets_.delete(socket);
    });
    return socket;
  }

  /** Ends every connection now (the app is closing). */
  destroyAll(): void {
    for (const socket of this.sockets_) socket.destroy(new Error('the shop is closing'));
  }

  private pinnedLookup(): LookupFunction {
    const resolve = this.push.resolve ?? dnsLookup;
    return (hostname, options, callback) => {
      resolve(hostname, { all: true, family: options.family ?? 0 }, (err, found) => {
        if (err) return callback(err, '', 0);
        const answers = found as unknown as LookupAddress[];
        // One private answer refuses the name: a mix is how DNS rebinding looks.
        const bad = answers.find((a) => !isPublicAddress(a.address));
        if (bad || answers.length === 0) {
          const refused = new PushTargetError(
            `${hostname} resolves to ${bad?.address ?? 'nothing'}, which is not a public address`,
          );
          return callback(refused, '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, answers);
        const [first] = answers as [LookupAddress];
        return callback(null, first.address, first.family);
      });
    };
  }
}
