import { BlockList, isIP } from 'node:net';

/**
 * Which peers may tell us the client's address in X-Forwarded-For (`TRUST_PROXY`):
 * - `none`: the socket's peer is the client (the default);
 * - `hops`: exactly this many proxies stand in front of every replica and nothing reaches it
 *   around them; the client is the address the outermost one saw;
 * - `addresses`: the proxies by address or CIDR; the chain is walked from the socket's peer
 *   towards the client while the address is one of them.
 * Never "every hop": the left-most entry is whatever the client wrote, and keying the rate limit
 * on it would give a fresh bucket per request.
 */
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'addresses'; addresses: string[] };

/** Whether the address at `hop` (0 = the socket's peer, then X-Forwarded-For right to left) is a trusted proxy. */
export type TrustFunction = (address: string, hop: number) => boolean;

const ALL_HOPS = /^(true|on|yes)$/i;
const NO_PROXY = /^(0|false|off|no)$/i;

/** Reads `TRUST_PROXY`: unset or 0 (none), a hop count, or comma-separated addresses and CIDRs. Throws naming what is wrong. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || NO_PROXY.test(text)) return { kind: 'none' };
  if (ALL_HOPS.test(text)) {
    throw new Error(`"${text}" would trust every hop, so a client could pick its own address by writing X-Forwarded-For; name the proxies (addresses or CIDRs, comma-separated, e.g. 172.28.0.10 or 10.0.0.0/8) or give the number of proxies in front of the server (e.g. 1)`);
  }
  if (/^\d+$/.test(text)) return { kind: 'hops', hops: Number(text) };
  const addresses = text.split(',').map((a) => a.trim());
  for (const entry of addresses) {
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const validPrefix = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= max);
    if (!family || !validPrefix || rest.length) {
      throw new Error(`"${entry}" is not an IP address or CIDR (expected e.g. 172.28.0.10, 10.0.0.0/8 or fd00::/8; or a hop count such as 1)`);
    }
  }
  return { kind: 'addresses', addresses };
}

/** The trust rule as Fastify takes it (`trustProxy`), so `request.ip` follows it; false for none. */
export function trustFunction(trust: TrustProxy): TrustFunction | false {
  if (trust.kind === 'none') return false;
  if (trust.kind === 'hops') return (_address, hop) => hop < trust.hops;
  const list = new BlockList();
  for (const entry of trust.addresses) {
    const [address, prefix] = entry.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client's address from the socket's peer and X-Forwarded-For, as Fastify's `request.ip`
 * computes it with the same trust function: for requests that never become a Fastify request
 * (the client error handler).
 */
export function clientAddress(trust: TrustFunction | false, peer: string, forwardedFor: string | undefined): string {
  if (!trust || !forwardedFor) return peer;
  const chain = [peer, ...forwardedFor.split(',').map((a) => a.trim()).filter(Boolean).reverse()];
  let hop = 0;
  while (hop < chain.length - 1 && trust(chain[hop], hop)) hop += 1;
  return chain[hop];
}
