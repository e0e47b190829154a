import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, carrier-grade NAT, multicast and other non-public ranges. */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NON_PUBLIC.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedUrlError';
  }
}

/**
 * A receiver URL must be http(s) and, unless private targets are allowed, reach only public
 * addresses: a literal IP is checked as is, a name by every address it resolves to.
 */
export async function assertDeliverableUrl(value: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RefusedUrlError('url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedUrlError('url must use http or https');
  if (url.username || url.password) throw new RefusedUrlError('url must not carry credentials');
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await resolve(host);
  const refused = addresses.find(isNonPublicAddress);
  if (refused) throw new RefusedUrlError(`url resolves to a non-public address (${refused})`);
  return url;
}

async function resolve(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw new RefusedUrlError(`url host ${host} does not resolve`);
  }
}
