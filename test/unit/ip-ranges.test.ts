import { describe, expect, it } from 'vitest';
import { classifyAddress, ipLiteralOfHostname, type TAddressClass } from '#shared/adapters/fetch/ip-ranges';

const addresses: [string, TAddressClass][] = [
  // IPv4 public
  ['93.184.216.34', 'public'],
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['100.63.255.255', 'public'],
  ['100.128.0.0', 'public'],
  ['169.253.255.255', 'public'],
  ['192.169.0.1', 'public'],
  ['223.255.255.255', 'public'],
  // IPv4 loopback
  ['127.0.0.1', 'loopback'],
  ['127.0.0.53', 'loopback'],
  ['127.255.255.254', 'loopback'],
  // IPv4 private
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['192.168.255.255', 'private'],
  // IPv4 link-local incl. cloud metadata
  ['169.254.169.254', 'link_local'],
  ['169.254.0.1', 'link_local'],
  // IPv4 unspecified, CGNAT, multicast, reserved
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'reserved'],
  ['100.64.0.1', 'cgnat'],
  ['100.100.100.200', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['192.0.0.170', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.51.100.1', 'reserved'],
  ['203.0.113.1', 'reserved'],
  // IPv6 basics
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['[::1]', 'loopback'],
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:82b::200e', 'public'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fd00:ec2::254', 'private'],
  ['[fd00:ec2::254]', 'private'],
  ['fec0::1', 'private'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['febf:ffff::1', 'link_local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['100::1', 'reserved'],
  ['4000::1', 'reserved'],
  // IPv4-mapped IPv6, in dotted and hex forms
  ['::ffff:93.184.216.34', 'public'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:a00:1', 'private'],
  ['::ffff:169.254.169.254', 'link_local'],
  ['::ffff:a9fe:a9fe', 'link_local'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:100.64.0.1', 'cgnat'],
  ['0:0:0:0:0:ffff:192.168.1.1', 'private'],
  // IPv4-compatible and IPv4-translated IPv6 (deprecated)
  ['::127.0.0.1', 'loopback'],
  ['::7f00:1', 'loopback'],
  ['::10.0.0.1', 'private'],
  ['::169.254.169.254', 'link_local'],
  ['::93.184.216.34', 'reserved'],
  ['::ffff:0:10.0.0.1', 'private'],
  // NAT64
  ['64:ff9b::93.184.216.34', 'public'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::a00:1', 'private'],
  ['64:ff9b::169.254.169.254', 'link_local'],
  ['64:ff9b:1::10.0.0.1', 'private'],
  ['64:ff9b:1::93.184.216.34', 'private'],
  // 6to4
  ['2002:5db8:d822::1', 'public'],
  ['2002:7f00:1::1', 'loopback'],
  ['2002:a9fe:a9fe::1', 'link_local'],
  // Not canonical addresses: refused rather than guessed at.
  ['', 'invalid'],
  ['localhost', 'invalid'],
  ['0x7f.0.0.1', 'invalid'],
  ['127.1', 'invalid'],
  ['2130706433', 'invalid'],
  ['0177.0.0.1', 'invalid'],
  ['256.0.0.1', 'invalid'],
  ['1.2.3.4.5', 'invalid'],
  ['1:2:3:4:5:6:7:8:9', 'invalid'],
  ['1::2::3', 'invalid'],
  ['::ffff:1.2.3', 'invalid'],
  ['12345::', 'invalid'],
];

describe('classifyAddress', () => {
  it.each(addresses)('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });
});

// Odd spellings reach the classifier through WHATWG URL parsing, which normalizes them first.
const urlHosts: [string, string, TAddressClass][] = [
  ['http://2130706433/', '127.0.0.1', 'loopback'],
  ['http://0x7f.1/', '127.0.0.1', 'loopback'],
  ['http://0x7f000001/', '127.0.0.1', 'loopback'],
  ['http://0177.0.0.1/', '127.0.0.1', 'loopback'],
  ['http://127.1/', '127.0.0.1', 'loopback'],
  ['http://127.0.1/', '127.0.0.1', 'loopback'],
  ['http://017700000001/', '127.0.0.1', 'loopback'],
  ['http://0/', '0.0.0.0', 'unspecified'],
  ['http://10.1/', '10.0.0.1', 'private'],
  ['http://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254', 'link_local'],
  ['http://2852039166/', '169.254.169.254', 'link_local'],
  ['http://169.254.169.254./', '169.254.169.254', 'link_local'],
  ['http://[::1]/', '::1', 'loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', '::1', 'loopback'],
  ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1', 'loopback'],
  ['http://[::ffff:10.0.0.1]/', '::ffff:a00:1', 'private'],
  ['http://[64:ff9b::10.0.0.1]/', '64:ff9b::a00:1', 'private'],
  ['http://[fd00:ec2::254]/', 'fd00:ec2::254', 'private'],
  ['http://[FE80::1]/', 'fe80::1', 'link_local'],
  ['https://93.184.216.34/', '93.184.216.34', 'public'],
];

describe('URL hosts', () => {
  it.each(urlHosts)('%s denotes %s (%s)', (url, ip, cls) => {
    const literal = ipLiteralOfHostname(new URL(url).hostname);
    expect(literal).toBe(ip);
    expect(classifyAddress(literal ?? '')).toBe(cls);
  });

  it('leaves host names to DNS', () => {
    expect(ipLiteralOfHostname(new URL('https://example.com/').hostname)).toBeUndefined();
    expect(ipLiteralOfHostname(new URL('https://169.254.169.254.nip.io/').hostname)).toBeUndefined();
  });
});
