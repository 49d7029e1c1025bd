import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ApiError } from '../../platform/errors';

// spec, POST /webhooks: the URL must be https, publicly reachable, not a private or link-local
// address. The host is resolved and every address it resolves to is checked. `svc serve
// --allow-local-targets` lifts all of it (DESIGN), for receivers on the integrator's machine.

const MAX_URL = 2048;
const LOOKUP_MS = 2000;

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['2001:db8::', 32], // documentation
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (one isIP already accepted). */
function groups(address: string): number[] {
  const bare = address.replace(/%.*$/, ''); // a zone (fe80::1%eth0) is no part of the address
  const [head = '', tail] = bare.split('::');
  const words = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((w) => {
          if (!w.includes('.')) {
            return [Number.parseInt(w, 16)];
          }
          const [a = 0, b = 0, c = 0, d = 0] = w.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d]; // a trailing dotted quad is two groups
        });
  const front = words(head);
  const back = tail === undefined ? [] : words(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const dotted = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');

/**
 * The IPv4 address an IPv6 address carries, where reaching the one reaches the other: mapped
 * ::ffff:0:0/96 and compatible ::/96 (RFC 4291), NAT64 64:ff9b::/96 (RFC 6052) and 6to4
 * 2002::/16 (RFC 3056). Otherwise 10.0.0.1 written as `[64:ff9b::10.0.0.1]` would get through.
 */
function embeddedIPv4(address: string): string | undefined {
  const g = groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && (g[5] === 0 || g[5] === 0xffff)) {
    return dotted(g[6] ?? 0, g[7] ?? 0);
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) {
    return dotted(g[6] ?? 0, g[7] ?? 0);
  }
  if (g[0] === 0x2002) {
    return dotted(g[1] ?? 0, g[2] ?? 0);
  }
  return undefined;
}

/** Loopback, private, link-local or otherwise not a public address. */
export function isLocalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) {
    return blocked.check(address, 'ipv4');
  }
  if (family !== 6) {
    return false;
  }
  const v4 = embeddedIPv4(address);
  return (v4 !== undefined && blocked.check(v4, 'ipv4')) || blocked.check(address, 'ipv6');
}

async function resolve(host: string): Promise<string[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((r) => {
    timer = setTimeout(() => r(undefined), LOOKUP_MS);
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), late]);
    return found?.map((a) => a.address);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

const refuse = (field: string, why: string) =>
  new ApiError('invalid_request', `${field} ${why}`, field);

/** The URL's form: absolute, http(s), not too long; https unless local targets are allowed. */
export function parseTarget(text: string, field: string, allowLocal: boolean): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw refuse(field, 'must be an absolute URL');
  }
  if (text.length > MAX_URL) {
    throw refuse(field, `must be at most ${MAX_URL} characters`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw refuse(field, 'must be an https URL');
  }
  if (!allowLocal && url.protocol !== 'https:') {
    throw refuse(field, 'must be https (svc serve --allow-local-targets accepts http)');
  }
  return url;
}

/**
 * The host must not be loopback, private or link-local, by name or by any address it resolves
 * to. A name that does not resolve at all is let through (decisions.md): svc runs offline, where
 * no public name resolves, and a delivery to it then fails and retries like any unreachable
 * receiver.
 */
export async function checkReachable(url: URL, field: string, allowLocal: boolean): Promise<void> {
  if (allowLocal) {
    return;
  }
  // `localhost.` is `localhost` written fully qualified.
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  const local =
    'must be publicly reachable, not a loopback, private or link-local address (svc serve --allow-local-targets accepts it)';
  if (host === 'localhost' || host.endsWith('.localhost')) {
    throw refuse(field, local);
  }
  const addresses = isIP(host) ? [host] : await resolve(host);
  if (addresses?.some(isLocalAddress)) {
    throw refuse(field, local);
  }
}
