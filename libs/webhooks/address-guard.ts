import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

function ipv4From(high: number, low: number): IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 addresses an IPv6 address carries or translates to, by its range: IPv4-mapped and
 * translated (`::ffff:a.b.c.d`, `::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`), 6to4 (`2002:AABB:CCDD::`),
 * Teredo (server and the obfuscated client), and the deprecated IPv4-compatible `::a.b.c.d`.
 */
function embeddedIPv4(address: IPv6): IPv4[] {
  const parts = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [ipv4From(parts[6]!, parts[7]!)];
    case '6to4':
      return [ipv4From(parts[1]!, parts[2]!)];
    case 'teredo':
      return [ipv4From(parts[2]!, parts[3]!), ipv4From(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff)];
    default:
      return parts.slice(0, 6).every((part) => part === 0) ? [ipv4From(parts[6]!, parts[7]!)] : [];
  }
}

/** NAT64 prefixes for local use (RFC 8215): what they translate to is the network's own business. */
const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/**
 * Whether an address is anything but public unicast, by ipaddr.js's range names: loopback, private,
 * link-local, carrier-grade NAT, unique-local, site-local, multicast, reserved, documentation… An IPv6
 * address that embeds or translates to an IPv4 one is judged by that IPv4 address.
 */
export function isNonPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as IPv6;
  if (v6.range() === 'unspecified' || v6.range() === 'loopback') return true;
  if (v6.match(LOCAL_NAT64)) return true;
  const embedded = embeddedIPv4(v6);
  if (embedded.length > 0) return embedded.some((ipv4) => ipv4.range() !== 'unicast');
  return v6.range() !== 'unicast';
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
  if (url.port === '0') throw new RefusedUrlError('url port 0 cannot be connected to');
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
