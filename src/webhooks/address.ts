import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses a webhook may never reach: everything that is not the public internet.
 * Pure: no DNS, no I/O. An address embedding an IPv4 address (v4-mapped, NAT64, 6to4) is
 * judged by the IPv4 address it carries.
 */
const v4Ranges: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const v6Ranges: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard'],
  ['2001:db8::', 32, 'documentation'],
  ['2001::', 32, 'reserved'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

/** Cloud metadata services, named so the refusal says what was at stake. */
const metadata = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

function listOf(ranges: [string, number, string][], family: 'ipv4' | 'ipv6') {
  return ranges.map(([net, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, family);
    return { list, reason };
  });
}

const v4Lists = listOf(v4Ranges, 'ipv4');
const v6Lists = listOf(v6Ranges, 'ipv6');

type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** The eight 16-bit groups of an IPv6 address. */
function groupsOf(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g || '0', 16));
}

const v4From = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 address carries, if it is one of the forms that route to IPv4. */
export function embeddedIPv4(address: string): string | undefined {
  const g = groupsOf(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4From(g[6]!, g[7]!); // ::ffff:a.b.c.d (v4-mapped)
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return v4From(g[6]!, g[7]!); // ::a.b.c.d (v4-compatible)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4From(g[6]!, g[7]!); // 64:ff9b::/96 (NAT64)
  if (g[0] === 0x2002) return v4From(g[1]!, g[2]!); // 2002::/16 (6to4)
  return undefined;
}

/** Decides whether a webhook may connect to `address` (an IP literal). */
export function classifyAddress(address: string): AddressVerdict {
  if (isIPv4(address)) {
    if (metadata.has(address)) return { allowed: false, reason: 'cloud metadata' };
    const hit = v4Lists.find(({ list }) => list.check(address, 'ipv4'));
    if (address === '255.255.255.255') return { allowed: false, reason: 'broadcast' };
    return hit ? { allowed: false, reason: hit.reason } : { allowed: true };
  }
  if (isIPv6(address)) {
    const bare = address.split('%')[0]!;
    const v4 = embeddedIPv4(bare);
    if (v4) return classifyAddress(v4);
    if (metadata.has(bare.toLowerCase())) return { allowed: false, reason: 'cloud metadata' };
    const hit = v6Lists.find(({ list }) => list.check(bare, 'ipv6'));
    return hit ? { allowed: false, reason: hit.reason } : { allowed: true };
  }
  return { allowed: false, reason: 'not an IP address' };
}
