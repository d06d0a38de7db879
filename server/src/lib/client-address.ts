import { isIPv4, isIPv6 } from 'node:net';

/**
 * The part of a client's address that rate limits count by. An IPv4 address as it is (an
 * IPv4-mapped IPv6 address counts as its IPv4 address); an IPv6 address by its /64 network,
 * since one subscriber usually holds a whole /64 and could otherwise rotate through it freely.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros ('2001:db8::1' → 2001,db8,0,…,1). */
function expandIPv6(ip: string): string[] {
  const address = ip.split('%', 1)[0]!.toLowerCase();
  const [head = '', tail] = address.split('::', 2);
  const parts = (text: string) => (text ? text.split(':') : []);
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  // A trailing dotted IPv4 part stands for two groups.
  const dotted = right.some((group) => group.includes('.')) ? 1 : 0;
  const missing = 8 - left.length - right.length - dotted;
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, missing)).fill('0'), ...right];
  return groups.map((group) =>
    group.includes('.') ? group : (Number.parseInt(group, 16) || 0).toString(16),
  );
}
