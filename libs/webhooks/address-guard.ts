import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
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

/** Link-local and cloud metadata addresses: allowed only by an entry of their own, never by a wider one. */
const LINK_LOCAL = [ipaddr.parseCIDR('169.254.0.0/16'), ipaddr.parseCIDR('fe80::/10'), ipaddr.parseCIDR('fd00:ec2::254/128')] as const;

/**
 * Cloud metadata services (AWS/GCP/Azure 169.254.169.254, ECS 169.254.170.2, AWS IPv6 fd00:ec2::254,
 * Alibaba 100.100.100.200): never reachable, whatever the setting lists.
 */
const METADATA = ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200'].map((address) => ipaddr.parse(address).toString());

function isMetadata(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const addresses = address.kind() === 'ipv6' ? [address, ...embeddedIPv4(address as IPv6)] : [address];
  return addresses.some((candidate) => METADATA.includes(candidate.toString()));
}

function inLinkLocal(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return LINK_LOCAL.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/**
 * The non-public receivers an operator allows, one address or network at a time
 * (WEBHOOK_ALLOWED_PRIVATE_TARGETS): `127.0.0.1`, `10.1.2.0/24`, `::1`, or `loopback` for 127.0.0.0/8 and
 * ::1. Everything else that is not public unicast is refused. A link-local or metadata address (169.254.x.x,
 * fe80::, fd00:ec2::254, or an IPv6 form that carries a 169.254.x.x) is allowed only by an entry inside
 * that range itself, so `0.0.0.0/0` or `::/0` never opens the cloud metadata service, and the metadata
 * addresses themselves are never allowed. The same setting and guard govern every outbound call Pylon
 * makes to an address a customer chose: webhook receivers and MCP servers.
 */
export class PrivateTargets {
  private constructor(private readonly ranges: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>) {}

  static readonly NONE = new PrivateTargets([]);

  /** Parses the setting's entries; throws an Error naming the first entry that is not an address, a CIDR or `loopback`. */
  static parse(entries: readonly string[]): PrivateTargets {
    const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
    for (const entry of entries) {
      if (entry === 'loopback') ranges.push(ipaddr.parseCIDR('127.0.0.0/8'), ipaddr.parseCIDR('::1/128'));
      else if (entry.includes('/') && ipaddr.isValidCIDR(entry)) ranges.push(ipaddr.parseCIDR(entry));
      else if (!entry.includes('/') && ipaddr.isValid(entry)) {
        const address = ipaddr.parse(entry);
        ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else throw new Error(`"${entry}" is not an IP address, a CIDR or "loopback"`);
    }
    return new PrivateTargets(ranges);
  }

  /** Whether a receiver may be at this address: a public one always, a non-public one only if listed. */
  allows(address: string): boolean {
    if (!isNonPublicAddress(address)) return true;
    if (!ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address);
    if (isMetadata(parsed)) return false;
    const linkLocal = inLinkLocal(parsed) || (parsed.kind() === 'ipv6' && embeddedIPv4(parsed as IPv6).some(inLinkLocal));
    return this.ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits) && (!linkLocal || inLinkLocal(range)));
  }

  toString(): string {
    return this.ranges.length === 0 ? 'none' : this.ranges.map(([range, bits]) => `${range.toString()}/${bits}`).join(', ');
  }
}

/**
 * A receiver URL must be http(s) and reach only public addresses or the private ones the operator
 * allows: a literal IP is checked as is, a name by every address it resolves to.
 */
export async function assertDeliverableUrl(value: string, allowed: PrivateTargets): Promise<URL> {
  return (await resolveDeliverableUrl(value, allowed)).url;
}

/**
 * assertDeliverableUrl, and the addresses it checked (a literal IP's own, else every address the name
 * resolved to, in the resolver's order): what a connection to the receiver may be pinned to.
 */
export async function resolveDeliverableUrl(value: string, allowed: PrivateTargets): Promise<{ url: URL; addresses: LookupAddress[] }> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RefusedUrlError('url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedUrlError('url must use http or https');
  if (url.username || url.password) throw new RefusedUrlError('url must not carry credentials');
  if (url.port === '0') throw new RefusedUrlError('url port 0 cannot be connected to');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await resolve(host);
  const refused = addresses.find((entry) => !allowed.allows(entry.address));
  if (refused)
    throw new RefusedUrlError(`url resolves to a non-public address (${refused.address}) that WEBHOOK_ALLOWED_PRIVATE_TARGETS does not list`);
  return { url, addresses };
}

async function resolve(host: string): Promise<LookupAddress[]> {
  try {
    return await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new RefusedUrlError(`url host ${host} does not resolve`);
  }
}

/**
 * A URL that a provider, not Pylon, will fetch (a video's start or end image): refused when its host is
 * an address, or `localhost`, that the same policy would refuse to a webhook receiver. A name is not
 * resolved here: the provider resolves it in its own network, so only what the URL itself says is judged.
 */
export function assertNoPrivateTargetInUrl(field: string, value: string, allowed: PrivateTargets): void {
  let host: string;
  try {
    host = new URL(value).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return; // the field's own validation says what is wrong with it
  }
  const address = host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : isIP(host) ? host : null;
  if (address !== null && !allowed.allows(address)) {
    throw new RefusedUrlError(`${field} points at a non-public address (${address}) that WEBHOOK_ALLOWED_PRIVATE_TARGETS does not list`);
  }
}

/**
 * A DNS lookup for a connection that refuses a name resolving to an address the policy refuses, so a
 * name that turns private after it was checked (DNS rebinding) is refused on every connection.
 */
export function guardedLookup(allowed: PrivateTargets): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      const list = (addresses ?? []) as LookupAddress[];
      if (error) return callback(error, '', 4);
      const refused = list.find((entry) => !allowed.allows(entry.address));
      if (refused) return callback(new RefusedUrlError(`refused: ${hostname} resolves to a non-public address (${refused.address})`), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
