// Pure classification of IP address strings, used to decide whether the service may connect to an
// address on behalf of a caller. Only addresses classified 'public' are reachable in production;
// everything else is either ours (loopback, private networks, cloud metadata) or not meant to carry
// ordinary unicast traffic, so letting a caller aim a request at it is a server-side request forgery.

export type TAddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'unspecified'
  | 'cgnat'
  | 'multicast'
  | 'reserved'
  /** Not an address in canonical form; treated as unsafe so that no lenient parser gets a say. */
  | 'invalid';

interface TV4Range {
  base: number;
  bits: number;
  cls: TAddressClass;
}

const v4 = (dotted: string, bits: number, cls: TAddressClass): TV4Range => {
  const base = parseIPv4(dotted);
  if (base === undefined) throw new Error(`bad range ${dotted}`);
  return { base, bits, cls };
};

// First match wins, so more specific ranges come before the ones that contain them.
const V4_RANGES: TV4Range[] = [
  v4('0.0.0.0', 32, 'unspecified'),
  // "This network": the kernel treats these as local, so they are not reachable public hosts.
  v4('0.0.0.0', 8, 'reserved'),
  v4('10.0.0.0', 8, 'private'),
  // Carrier-grade NAT space is also used inside clouds (Alibaba's metadata service is 100.100.100.200).
  v4('100.64.0.0', 10, 'cgnat'),
  v4('127.0.0.0', 8, 'loopback'),
  // Includes 169.254.169.254, the instance metadata service of AWS, GCP, Azure and others.
  v4('169.254.0.0', 16, 'link_local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'reserved'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'reserved'),
  v4('203.0.113.0', 24, 'reserved'),
  v4('224.0.0.0', 4, 'multicast'),
  // 240/4 is reserved for future use and contains the limited broadcast address 255.255.255.255.
  v4('240.0.0.0', 4, 'reserved'),
];

/**
 * Strict dotted-quad parser. Leading zeros, hex and short forms are rejected on purpose: different
 * parsers disagree on what they mean, and URL hosts reach here already normalized by WHATWG URL.
 */
function parseIPv4(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value;
}

function classifyIPv4Number(value: number): TAddressClass {
  for (const range of V4_RANGES) {
    const size = 2 ** (32 - range.bits);
    if (value - (value % size) === range.base) return range.cls;
  }
  return 'public';
}

/** Parses an IPv6 address (optionally with a trailing dotted IPv4 part) into eight 16-bit groups. */
function parseIPv6(ip: string): number[] | undefined {
  let text = ip;
  const lastColon = text.lastIndexOf(':');
  if (lastColon !== -1 && text.includes('.', lastColon)) {
    // Rewrite a dotted IPv4 tail as two hex groups so one grammar covers every form.
    const v4value = parseIPv4(text.slice(lastColon + 1));
    if (v4value === undefined) return undefined;
    const hi = Math.floor(v4value / 65536).toString(16);
    const lo = (v4value % 65536).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hi}:${lo}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const readGroups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const groups: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      groups.push(Number.parseInt(g, 16));
    }
    return groups;
  };
  const head = readGroups(halves[0] ?? '');
  if (head === undefined) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const rest = readGroups(halves[1] ?? '');
  if (rest === undefined) return undefined;
  const known = head.length + rest.length;
  // '::' stands for at least one group of zeros.
  if (known > 7) return undefined;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest];
}

const embeddedV4 = (hi: number, lo: number): number => hi * 65536 + lo;

/**
 * An address that smuggles an IPv4 address inside IPv6 (compatible, translated, 6to4, NAT64) is
 * as dangerous as the IPv4 address itself wherever some router or the kernel unwraps it.
 */
function classifyEmbedded(v4value: number, whenPublic: TAddressClass): TAddressClass {
  const cls = classifyIPv4Number(v4value);
  return cls === 'public' ? whenPublic : cls;
}

function classifyIPv6Groups(g: number[]): TAddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const first64Zero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  if (first64Zero && g4 === 0 && g5 === 0) {
    if (g6 === 0 && g7 === 0) return 'unspecified';
    if (g6 === 0 && g7 === 1) return 'loopback';
    // IPv4-compatible (::a.b.c.d) is deprecated; nothing legitimate uses it any more.
    return classifyEmbedded(embeddedV4(g6, g7), 'reserved');
  }
  // IPv4-mapped (::ffff:a.b.c.d): the kernel sends these as plain IPv4 on dual-stack sockets.
  if (first64Zero && g4 === 0 && g5 === 0xffff) return classifyIPv4Number(embeddedV4(g6, g7));
  // IPv4-translated (::ffff:0:a.b.c.d, RFC 2765), obsolete.
  if (first64Zero && g4 === 0xffff && g5 === 0) return classifyEmbedded(embeddedV4(g6, g7), 'reserved');
  // Well-known NAT64 prefix (64:ff9b::/96): a NAT64 gateway connects to the embedded IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return classifyIPv4Number(embeddedV4(g6, g7));
  }
  // Local-use NAT64 prefix (64:ff9b:1::/48) only exists inside an operator's own network.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return classifyEmbedded(embeddedV4(g6, g7), 'private');
  if (g0 >= 0xff00) return 'multicast';
  if ((g0 & 0xffc0) === 0xfe80) return 'link_local';
  // Site-local (fec0::/10) is deprecated but still routed inside some networks.
  if ((g0 & 0xffc0) === 0xfec0) return 'private';
  // Unique local addresses, fc00::/7; includes AWS's IPv6 metadata endpoint fd00:ec2::254.
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  // 6to4 (2002::/16) wraps an IPv4 address in bits 16..47.
  if (g0 === 0x2002) return classifyEmbedded(embeddedV4(g1, g2), 'public');
  // IETF protocol assignments incl. Teredo and ORCHID (2001::/23), and documentation prefixes.
  if (g0 === 0x2001 && g1 < 0x200) return 'reserved';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'reserved';
  if (g0 === 0x3fff && g1 < 0x1000) return 'reserved';
  // Only 2000::/3 is allocated for global unicast; anything else outside the cases above is unassigned.
  if ((g0 & 0xe000) === 0x2000) return 'public';
  return 'reserved';
}

/**
 * Classifies one IP address in the textual form a resolver or a WHATWG-normalized URL host yields:
 * dotted-quad IPv4, or IPv6 with or without surrounding brackets and zone id.
 */
export function classifyAddress(ip: string): TAddressClass {
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.includes(':')) {
    const zone = text.indexOf('%');
    // A zone id only has meaning for link-scoped addresses; classify the address it qualifies.
    if (zone !== -1) text = text.slice(0, zone);
    const groups = parseIPv6(text);
    return groups ? classifyIPv6Groups(groups) : 'invalid';
  }
  const value = parseIPv4(text);
  return value === undefined ? 'invalid' : classifyIPv4Number(value);
}

/**
 * The IP address a WHATWG URL hostname denotes, or undefined when the host is a name that needs DNS.
 * WHATWG parsing has already turned decimal, octal, hex and short IPv4 forms into dotted quads.
 */
export function ipLiteralOfHostname(hostname: string): string | undefined {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return hostname.slice(1, -1);
  return parseIPv4(hostname) === undefined ? undefined : hostname;
}
