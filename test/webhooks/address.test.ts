import { describe, expect, it } from 'vitest';
import { classifyAddress, embeddedIPv4 } from '../../src/webhooks/address.js';

describe('classifyAddress: only public addresses may receive webhooks', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['100.100.100.200', 'cloud metadata'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
    ['2002:0a00:0001::1', 'private'],
  ])('refuses %s (%s)', (address, reason) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed && reason !== 'reserved') expect(verdict.reason).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81b::200e',
    '::ffff:8.8.8.8',
  ])('allows the public address %s', (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it('refuses what is not an IP address at all', () => {
    expect(classifyAddress('example.com')).toEqual({ allowed: false, reason: 'not an IP address' });
  });

  it('finds the IPv4 address inside mapped, NAT64 and 6to4 IPv6 forms', () => {
    expect(embeddedIPv4('::ffff:192.168.0.1')).toBe('192.168.0.1');
    expect(embeddedIPv4('::ffff:c0a8:1')).toBe('192.168.0.1');
    expect(embeddedIPv4('64:ff9b::c0a8:1')).toBe('192.168.0.1');
    expect(embeddedIPv4('2002:c0a8:0001::')).toBe('192.168.0.1');
    expect(embeddedIPv4('2606:4700::1')).toBeUndefined();
    expect(embeddedIPv4('::1')).toBeUndefined();
  });
});
