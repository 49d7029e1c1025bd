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

/** Loopback, private, link-local or otherwise not a public address. */
export function isLocalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) {
    return blocked.check(address, 'ipv4');
  }
  if (family !== 6) {
    return false;
  }
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return mapped ? blocked.check(mapped, 'ipv4') : blocked.check(address, 'ipv6');
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
