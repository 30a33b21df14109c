import { BlockList, isIP } from 'node:net';
import type { TrustProxy } from '../config.ts';

/** Whether the address at `hop` (0 = the socket's peer, then X-Forwarded-For right to left) is a trusted proxy. */
export type TrustFunction = (address: string, hop: number) => boolean;

/** The trust rule of `TRUST_PROXY`; false for none. */
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
 * The client's address (`request.client`, and the client error handler's) from the socket's peer
 * and X-Forwarded-For: the chain is walked from the peer towards the client while the hop is a
 * trusted proxy. A chain that runs out while every hop is trusted did not come through the
 * proxies as TRUST_PROXY declares them (a hop count above the real chain): its left-most entry
 * may be the client's own writing, so the peer is the client.
 */
export function clientAddress(trust: TrustFunction | false, peer: string, forwardedFor: string | undefined): string {
  if (!trust || !forwardedFor) return peer;
  const chain = [peer, ...forwardedFor.split(',').map((a) => a.trim()).filter(Boolean).reverse()];
  let hop = 0;
  while (hop < chain.length - 1 && trust(chain[hop], hop)) hop += 1;
  return trust(chain[hop], hop) ? peer : chain[hop];
}
